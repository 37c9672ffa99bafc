// The consent workflow's record: the shapes it has been kept in, oldest first.
import { z } from 'zod';
import { consentState } from '../../../contract';
import { versioned } from '../../versioned';
import type { ConsentWorkflow } from '../types';
import { interventionBrief, patientFacts, recordBase, serviceType, verificationData, type Agrees } from './shared';

/** Version 1: as kept up to 2026-11-28 (unversioned then). */
const consentV1 = z.strictObject({
  ...recordBase('consent', consentState),
  data: z.strictObject({
    patient: patientFacts,
    intervention: interventionBrief,
    serviceType,
    verification: verificationData,
    visitWorkflowId: z.string().nullable(),
    openVisitGuid: z.string().optional(),
  }),
});

export const consentRecord = versioned(consentV1);

const agrees: Agrees<typeof consentV1, ConsentWorkflow> = true;
void agrees;
