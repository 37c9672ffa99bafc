// The emergency workflow's record: the shapes it has been kept in, oldest first.
import { z } from 'zod';
import { unknownPatientReasons } from '../../../vocabulary';
import { attendingDoctor, broughtBy, dischargeReason, emergencyProtocol, emergencyState, modeOfArrival } from '../../../contract';
import { versioned } from '../../versioned';
import type { EmergencyWorkflow } from '../types';
import { claimReadBack, interventionBrief, patientFacts, patientFactsV2, recordBase, verificationData, type Agrees } from './shared';

/** Version 1: as kept up to 2026-11-28 (unversioned then). */
const emergencyV1 = z.strictObject({
  ...recordBase('emergency', emergencyState),
  data: z.strictObject({
    intervention: interventionBrief,
    protocol: emergencyProtocol,
    doctor: attendingDoctor,
    modeOfArrival,
    broughtBy,
    referenceNumber: z.string(),
    notes: z.string(),
    verification: verificationData,
    consentToken: z.string().nullable(),
    claimId: z.string().nullable(),
    protocolAdded: z.boolean(),
    furtherProtocols: z.array(emergencyProtocol).optional(),
    doctorApprovalRequestedAt: z.string().nullable(),
    patient: patientFacts.nullable(),
    identifying: patientFacts.nullable(),
    emergencyAt: z.string().nullable(),
    submitBy: z.string().nullable(),
    claimStatus: z.string().nullable(),
    submittedAt: z.string().nullable(),
    invoiceNumber: z.string().nullable(),
    intent: z
      .strictObject({
        reason: dischargeReason,
        invoiceNumber: z.string(),
        unknownPatientReason: z.enum(unknownPatientReasons).nullable(),
        notes: z.string().nullable(),
      })
      .nullable(),
    claimReadBack: claimReadBack.optional(),
    documentsReturnSeenAt: z.string().optional(),
  }),
});

/** Version 2 (issue 23): the patient, and the one being identified, may carry the patient in full while the claim is open. */
const emergencyV2 = emergencyV1.extend({ data: emergencyV1.shape.data.extend({ patient: patientFactsV2.nullable(), identifying: patientFactsV2.nullable() }) });

// A version 1 record is a version 2 record without the patient in full.
export const emergencyRecord = versioned(emergencyV1).then(emergencyV2, (v1) => v1);

const agrees: Agrees<typeof emergencyV2, EmergencyWorkflow> = true;
void agrees;
