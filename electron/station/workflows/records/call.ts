// A journaled exchange call's sealed part: the request as sent and how a call whose answer is not
// known is settled. Calls journaled before the policy was written into the row have none: the
// policy declared for the operation then stands (journal.ts, `policyOf`).
import { z } from 'zod';
import { versioned } from '../../versioned';
import type { ReconcilePolicy } from '../journal';
import type { Agrees } from './shared';

const policy = z.enum(['look-up', 'post-again', 'send-again', 'cannot-look-up']);

/** Version 1: as kept up to 2026-11-28 (unversioned then). */
const callV1 = z.strictObject({ request: z.record(z.string(), z.unknown()), reconcile: policy.optional() });

export const callRecord = versioned(callV1);

export interface SealedCall {
  readonly request: Record<string, unknown>;
  readonly reconcile?: ReconcilePolicy | undefined;
}

const agrees: Agrees<typeof callV1, SealedCall> = true;
void agrees;
