// The claim documents the station makes (the invoice; for an inpatient, the discharge summary).
export { loadDocumentFonts, type DocumentFonts } from './fonts';
export { claimOnPaper, type ClaimOnPaper } from './from-preview';
export {
  DocumentInputError,
  documentDischargeReasons,
  documentLanguages,
  documentServiceTypes,
  type DischargeSummaryInput,
  type DocumentLanguage,
  type InvoiceInput,
} from './input';
export { DocumentTooLargeError, makeDischargeSummary, makeInvoice, type ClaimDocument, type Invoice } from './make';
