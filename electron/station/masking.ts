// What may cross to the renderer about a person in lists, workflow views, events and the activity
// record: enough to tell patients apart, not enough to identify them from a screenshot. Every masked
// value carries a '*'. (The patient being looked up at the bedside is shown in full for the nurse's
// check, in the look-up's own answer only: patients/record.ts, `identity`.)

/** "Wanjiku Mumbi Kamau" → "W*** M*** K***". */
export function maskName(fullName: string | undefined): string {
  const parts = (fullName ?? '').split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '***';
  return parts
    .slice(0, 6)
    .map((part) => `${part.charAt(0).toUpperCase()}***`)
    .join(' ');
}

/** "30000001" → "30****01"; short numbers keep only their last character. */
export function maskIdNumber(idNumber: string): string {
  const value = idNumber.trim();
  if (value.length <= 4) return `***${value.slice(-1)}`;
  return `${value.slice(0, 2)}${'*'.repeat(Math.min(value.length - 4, 20))}${value.slice(-2)}`;
}

/** Contacts arrive masked from the exchange (+254714***898); anything that does not is masked here. */
export function maskContact(value: string | undefined): string {
  const v = (value ?? '').trim();
  if (v.includes('*')) return v.slice(0, 200);
  if (v.length <= 6) return '***';
  return `${v.slice(0, 7)}***${v.slice(-3)}`;
}
