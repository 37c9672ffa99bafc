// The discharge workflow's record: the shapes it has been kept in, oldest first.
import { z } from 'zod';
import { dischargeReason, dischargeState } from '../../../contract';
import { versioned } from '../../versioned';
import type { DischargeWorkflow } from '../types';
import { interventionBrief, patientFacts, recordBase, serviceType, verificationData, type Agrees } from './shared';

const referral = z.strictObject({ code: z.string(), name: z.string() });

/** Version 1: as kept up to 2026-11-28 (unversioned then). */
const dischargeV1 = z.strictObject({
  ...recordBase('discharge', dischargeState),
  data: z.strictObject({
    visitWorkflowId: z.string(),
    patient: patientFacts,
    intervention: interventionBrief,
    serviceType,
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

export const dischargeRecord = versioned(dischargeV1);

const agrees: Agrees<typeof dischargeV1, DischargeWorkflow> = true;
void agrees;
