// The elective admission's record: the shapes it has been kept in, oldest first.
import { z } from 'zod';
import { attendingDoctor, electiveState, preauthStatus } from '../../../contract';
import { versioned } from '../../versioned';
import type { ElectiveWorkflow } from '../types';
import { heldPaper, interventionBrief, patientFacts, patientFactsV2, recordBase, verificationData, type Agrees } from './shared';

/** Version 1: as kept up to 2026-11-28 (unversioned then). */
const electiveV1 = z.strictObject({
  ...recordBase('elective', electiveState),
  data: z.strictObject({
    patient: patientFacts,
    intervention: interventionBrief,
    phase: z.enum(['pre-visit', 'visit-day']),
    verification: verificationData,
    phaseOneMethod: z.enum(['sms', 'fingerprint']).nullable(),
    authToken: z.string().nullable(),
    authGuid: z.string().nullable(),
    preauthRequest: z
      .strictObject({
        serviceStart: z.string(),
        serviceEnd: z.string(),
        requestedAmountKes: z.number(),
        diagnoses: z.array(z.strictObject({ code: z.string(), name: z.string().optional() })),
        doctor: attendingDoctor,
        notificationEmail: z.string(),
        clinicalNotes: z.string().nullable(),
        documents: z.array(heldPaper).optional(),
        documentsGone: z.boolean().optional(),
      })
      .nullable(),
    preauth: z
      .strictObject({
        reference: z.string().nullable(),
        status: preauthStatus,
        requestedAmountKes: z.number(),
        createdAt: z.string().nullable(),
        checkedAt: z.string().nullable(),
        doctorApprovedSeen: z.boolean(),
        notes: z.array(z.string()).optional(),
      })
      .nullable(),
    visitWorkflowId: z.string().nullable(),
  }),
});

/** Version 2 (issue 23): the patient may carry the patient in full while the workflow is open. */
const electiveV2 = electiveV1.extend({ data: electiveV1.shape.data.extend({ patient: patientFactsV2 }) });

// A version 1 record is a version 2 record without the patient in full.
export const electiveRecord = versioned(electiveV1).then(electiveV2, (v1) => v1);

const agrees: Agrees<typeof electiveV2, ElectiveWorkflow> = true;
void agrees;
