// The contract's formats for what the nurse types (electron/contract/common.ts), checked before
// sending so the field itself can say what is wrong. The station core checks again; the renderer
// cannot import those zod schemas without bundling zod.

/** An ICD-11 code, as `diagnosis.code`. */
export const isDiagnosisCode = (code: string): boolean => /^[A-Za-z0-9.&/-]{2,20}$/.test(code);

/** The facility's invoice number, as `invoiceNumber`. */
export const isInvoiceNumber = (value: string): boolean => /^[A-Za-z0-9/_-]{1,60}$/.test(value);
