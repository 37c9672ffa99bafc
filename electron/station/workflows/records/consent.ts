// The consent workflow's record: the shapes it has been kept in, oldest first.
import { z } from 'zod';
import { consentState } from '../../../contract';
import { versioned } from '../../versioned';
import type { ConsentWorkflow } from '../types';
import { careFields, patientFactsV2, recordBase, verificationData, type Agrees } from './shared';

/** Version 1: as kept up to 2026-11-28 (unversioned then). */
const consentV1 = z.strictObject({
  ...recordBase('consent', consentState),
  data: z.strictObject({
    ...careFields,
    verification: verificationData,
    visitWorkflowId: z.string().nullable(),
    openVisitGuid: z.string().optional(),
  }),
});

/** Version 2 (issue 23): the patient may carry the patient in full while the workflow is open. */
const consentV2 = consentV1.extend({ data: consentV1.shape.data.extend({ patient: patientFactsV2 }) });

// A version 1 record is a version 2 record without the patient in full.
export const consentRecord = versioned(consentV1).then(consentV2, (v1) => v1);

const agrees: Agrees<typeof consentV2, ConsentWorkflow> = true;
void agrees;
