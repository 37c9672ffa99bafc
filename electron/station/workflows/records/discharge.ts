// The discharge workflow's record: the shapes it has been kept in, oldest first.
import { z } from 'zod';
import { dischargeReason, dischargeState } from '../../../contract';
import { versioned } from '../../versioned';
import type { DischargeWorkflow } from '../types';
import { careFields, patientFactsV2, recordBase, verificationData, type Agrees } from './shared';

const referral = z.strictObject({ code: z.string(), name: z.string() });

/** Version 1: as kept up to 2026-11-28 (unversioned then). */
const dischargeV1 = z.strictObject({
  ...recordBase('discharge', dischargeState),
  data: z.strictObject({
    visitWorkflowId: z.string(),
    ...careFields,
    closeBy: z.enum(['discharge', 'submit']),
    consentToken: z.string(),
    verification: verificationData,
    invoiceNumber: z.string().nullable(),
    partialDischarges: z.array(z.string()),
    claimStatus: z.string().nullable(),
    closedAt: z.string().nullable(),
    intent: z
      .strictObject({
        action: z.enum(['discharge', 'submit']),
        reason: dischargeReason,
        invoiceNumber: z.string(),
        notes: z.string().nullable(),
        partial: z.boolean(),
        dischargedAt: z.string().nullable(),
        finalisesPartial: z.boolean(),
        referredTo: referral.nullable().optional(),
      })
      .nullable(),
    referredTo: referral.nullable().optional(),
  }),
});

/** Version 2 (issue 23): the patient may carry the patient in full while the workflow is open. */
const dischargeV2 = dischargeV1.extend({ data: dischargeV1.shape.data.extend({ patient: patientFactsV2 }) });

// A version 1 record is a version 2 record without the patient in full.
export const dischargeRecord = versioned(dischargeV1).then(dischargeV2, (v1) => v1);

const agrees: Agrees<typeof dischargeV2, DischargeWorkflow> = true;
void agrees;
