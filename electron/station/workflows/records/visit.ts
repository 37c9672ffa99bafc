// The visit workflow's record: the shapes it has been kept in, oldest first.
import { z } from 'zod';
import { attendingDoctor, billingLine, dispensedProduct, prescriptionItem, visitState } from '../../../contract';
import { versioned } from '../../versioned';
import type { VisitWorkflow } from '../types';
import { careFields, claimReadBack, interventionBrief, patientFactsV2, recordBase, type Agrees } from './shared';

const dispenseEntry = z.strictObject({
  ref: z.string(),
  at: z.string(),
  products: z.array(dispensedProduct),
  completesFill: z.boolean(),
  state: z.enum(['sending', 'dispensed']),
  status: z.string().nullable(),
});

const prescription = z.strictObject({
  ref: z.string(),
  writtenAt: z.string(),
  prescriber: attendingDoctor,
  items: z.array(prescriptionItem),
  state: z.enum(['sending', 'written']),
  exchangeCode: z.string().nullable(),
  exchangeId: z.string().nullable().optional(),
  status: z.string().nullable(),
  reviewStatus: z.string().nullable(),
  statusAt: z.string().nullable().optional(),
  dispenses: z.array(dispenseEntry),
});

/** Version 1: as kept up to 2026-11-28 (unversioned then). */
const visitV1 = z.strictObject({
  ...recordBase('visit', visitState),
  data: z.strictObject({
    ...careFields,
    closeBy: z.enum(['discharge', 'submit']),
    consentToken: z.string().nullable(),
    openedWith: z.union([z.strictObject({ authGuid: z.string() }), z.strictObject({ otp: z.string() })]),
    doctorAtStart: attendingDoctor.nullable(),
    visitNumber: z.string().nullable(),
    invoiceNumber: z.string().nullable(),
    claimStatus: z.string().nullable(),
    startedAt: z.string().nullable(),
    doctor: attendingDoctor.nullable(),
    lines: z.array(billingLine),
    totalKes: z.number(),
    addedLineIds: z.array(z.string()),
    fromWorkflowId: z.string().nullable(),
    dischargeWorkflowId: z.string().nullable(),
    claimReadBack: claimReadBack.optional(),
    authorizationGuid: z.string().optional(),
    forDispensing: z.literal(true).optional(),
    windowDispenses: z.array(dispenseEntry).optional(),
    documentsReturnSeenAt: z.string().optional(),
    prescriptions: z.array(prescription).optional(),
  }),
});

/** Version 2 (issue 23): the patient may carry the patient in full while the workflow is open. */
const visitV2 = visitV1.extend({ data: visitV1.shape.data.extend({ patient: patientFactsV2 }) });

/**
 * Version 3 (issue 22): every service on the claim with its state (`services`); a version 2 visit
 * had the one it opened for, which the code reads as its only service, so the step adds nothing.
 */
const visitV3 = visitV2.extend({
  data: visitV2.shape.data.extend({ services: z.array(interventionBrief.extend({ active: z.boolean() })).optional() }),
});

export const visitRecord = versioned(visitV1)
  // A version 1 record is a version 2 record without the patient in full.
  .then(visitV2, (v1) => v1)
  .then(visitV3, (v2) => v2);

const agrees: Agrees<typeof visitV3, VisitWorkflow> = true;
void agrees;
