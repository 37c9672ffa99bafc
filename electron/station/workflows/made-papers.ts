// The claim papers the station makes at the visit's end (issue 22): the invoice from SHA's own
// lines of the claim and, for an inpatient stay, the discharge summary, attached under the document
// type SHA lists (INVOICE, DISCHARGE_SUMMARY) when the claim still lacks one — so a claim reaches
// SHA with its invoice though the nurse chose no file. A paper of that type already on the claim
// (the nurse's scan) stands: the station's is never attached beside it.
import type { ClaimPreview as WireClaimPreview } from '../../payer';
import { claimOnPaper, loadDocumentFonts, makeDischargeSummary, makeInvoice, type ClaimDocument, type DocumentFonts } from '../documents';
import { fail } from '../errors';
import { attachPaper } from './claims';
import type { Ctx } from './context';
import type { DischargeIntent, VisitWorkflow } from './types';
import { refreshFromPreview, servicesOf } from './visit';

let fonts: DocumentFonts | null = null;
/** DejaVu Sans, read once when the first paper is made (not at start: most stations make none before a visit ends). */
function documentFonts(): DocumentFonts {
  fonts ??= loadDocumentFonts();
  return fonts;
}

/** A paper the station made, as the screen shows it and the claim takes it. */
export interface MadePaper {
  readonly document: ClaimDocument;
  /** Lines on it and its total (the invoice); null for the discharge summary. */
  readonly lineCount: number | null;
  readonly totalKes: number | null;
  /** SHA holds a paper of this type on the claim already (the nurse's scan, or the station's from before). */
  readonly onClaim: boolean;
}

function patientName(ctx: Ctx, visit: VisitWorkflow): string {
  const ref = visit.data.patient.ref;
  const known = ctx.patients.has(ref) ? ctx.patients.summaryOf(ref).identity?.fullName : null;
  return known ?? visit.data.patient.maskedName;
}

function common(ctx: Ctx, visit: VisitWorkflow, preview: WireClaimPreview, end: string | null) {
  const { facilityName, facilityCode, language } = ctx.settings.values;
  if (facilityName === null || facilityCode === null) fail('SETTINGS_MISSING', 'The facility’s name and code are needed on its papers.', { field: 'facilityName' });
  const invoiceNumber = preview.invoiceNumber ?? visit.data.invoiceNumber;
  if (invoiceNumber === null) fail('WRONG_STATE', 'SHA has not given the claim its invoice number yet.', { state: visit.state });
  const paper = claimOnPaper(preview);
  const names = new Map(servicesOf(visit).map((s) => [s.code, s.name]));
  const doctor = visit.data.doctor;
  return {
    paper,
    input: {
      language: language === 'sw' ? ('sw' as const) : ('en' as const),
      issuedAt: ctx.nowIso(),
      facility: { name: facilityName, code: facilityCode },
      invoiceNumber,
      patient: { name: patientName(ctx, visit), shaNumber: visit.data.patient.patientId },
      visit: {
        visitNumber: preview.visitNumber ?? visit.data.visitNumber,
        serviceType: visit.data.serviceType,
        start: preview.visitStart ?? visit.data.startedAt ?? visit.createdAt,
        end,
        services: paper.services.map((s) => ({ code: s.code, name: s.name ?? names.get(s.code) ?? null })),
      },
      doctor: doctor === null ? null : { name: null, registrationNumber: doctor.identificationNumber, regulator: doctor.regulationBody },
    },
  };
}

/** The invoice made from SHA's lines of the claim as it stands now. */
export async function madeInvoice(ctx: Ctx, visit: VisitWorkflow): Promise<MadePaper> {
  const preview = await refreshFromPreview(ctx, visit);
  const { paper, input } = common(ctx, visit, preview, null);
  if (paper.lines.length === 0) fail('WRONG_STATE', 'The claim has no billing lines yet: the invoice is made from them.', { state: 'no-lines' });
  const invoice = await makeInvoice({ ...input, lines: paper.lines }, documentFonts());
  return { document: invoice, lineCount: paper.lines.length, totalKes: invoice.totalKes, onClaim: preview.attachments.some((a) => a.attachmentType === 'INVOICE') };
}

/**
 * Before the claim is sent: the invoice (and an inpatient's discharge summary) attached where the
 * claim has none of that type. Answers the types the station attached. A refusal stops the visit
 * end before the patient's consent is spent; a summary SHA's claim holds no diagnosis for is not
 * made (it names at least one), and the claim goes without it.
 */
export async function attachMissingPapers(ctx: Ctx, visit: VisitWorkflow, intent: Pick<DischargeIntent, 'reason' | 'dischargedAt' | 'notes' | 'referredTo'>): Promise<string[]> {
  const preview = await refreshFromPreview(ctx, visit);
  const held = new Set(preview.attachments.map((a) => a.attachmentType));
  const attached: string[] = [];
  const made: ClaimDocument[] = [];
  const end = intent.dischargedAt ?? ctx.nowIso();
  if (!held.has('INVOICE')) {
    const { paper, input } = common(ctx, visit, preview, end);
    if (paper.lines.length > 0) made.push(await makeInvoice({ ...input, lines: paper.lines }, documentFonts()));
  }
  const standing = new Set(claimOnPaper(preview).services.map((s) => s.code));
  // A retired service's diagnoses are not the stay's: SHA no longer pays that service.
  const diagnoses = preview.diagnoses.filter((d) => d.interventionCode === undefined || standing.has(d.interventionCode));
  if (visit.data.serviceType === 'INPATIENT' && !held.has('DISCHARGE_SUMMARY') && diagnoses.length > 0) {
    const { input } = common(ctx, visit, preview, end);
    made.push(
      await makeDischargeSummary(
        {
          ...input,
          diagnoses: diagnoses.slice(0, 100).map((d) => ({ code: d.code, title: d.name ?? null, interventionCode: d.interventionCode ?? null })),
          discharge: { at: end, reason: intent.reason, referredTo: intent.referredTo ?? null, notes: intent.notes },
        },
        documentFonts(),
      ),
    );
  }
  for (const document of made) {
    await attachPaper(ctx, visit, undefined, {
      documentType: document.documentType,
      title: document.title,
      fileName: document.fileName,
      contentType: document.contentType,
      dataBase64: Buffer.from(document.bytes).toString('base64'),
    });
    attached.push(document.documentType);
  }
  return attached;
}
