/** Upper-case hexadecimal, zero-padded: hex(0x2a, 2) === '2A'. */
export function hex(value: number, digits: number): string {
  return value.toString(16).toUpperCase().padStart(digits, '0');
}
