/** A free text from the exchange, trimmed and cut to what the contract allows; null when empty. */
export const text = (value: string | undefined, max: number): string | null => {
  const v = value?.trim();
  return v === undefined || v === '' ? null : v.slice(0, max);
};
