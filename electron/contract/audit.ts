// This station's audit trail: append-only and hash-chained by the core. Records name workflows and
// actions, never secrets or patient names.
import { z } from 'zod';
import { masked, noInput, page, pageRequest, timestamp, workflowId } from './common';
import { errorCode } from './errors';
import { workflowKind } from './workflows';

const hash = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 hex digest');

export const auditRecord = z.strictObject({
  seq: z.number().int().min(1),
  at: timestamp,
  /** What happened, e.g. "visit.open" or "exchange.claims.submit". */
  action: z.string().min(1).max(100),
  workflowId: workflowId.nullable(),
  workflowKind: workflowKind.nullable(),
  /** Journaled before an exchange call ("started") and after it ("succeeded" or "failed"). */
  outcome: z.enum(['started', 'succeeded', 'failed']),
  errorCode: errorCode.nullable(),
  summary: z.string().max(500),
  /** The staff member signed in when it happened (who took the consent, who submitted the claim); null for the station's own doings before anyone signed in. */
  actor: z.string().max(200).nullable(),
  previousHash: hash.nullable(),
  hash,
});

/**
 * A record as the Activity screen reads it: the record, and which patient it concerns, masked (the
 * workflow's patient, or the patient a look-up named). Derived when read, never stored or hashed.
 */
export const auditEntry = auditRecord.extend({ maskedPatient: masked.nullable() });
export type AuditEntryView = z.infer<typeof auditEntry>;

const filters = {
  from: timestamp.optional(),
  to: timestamp.optional(),
  workflowId: workflowId.optional(),
  /** Matches actions that start with it ("consent." matches every consent action). */
  action: z.string().min(1).max(100).optional(),
  outcome: auditRecord.shape.outcome.optional(),
  /** The staff member's name, as records carry it. */
  actor: z.string().min(1).max(200).optional(),
};

export const auditCommands = {
  /** Newest first. */
  'audit.read': { input: z.strictObject({ ...filters, ...pageRequest }), output: page(auditEntry) },
  /**
   * The matching records as JSON Lines, oldest first, for the renderer to save as a file; its last
   * line is `{"trail": {head, keyedFrom, exportedAt, filtered}}`: the whole trail's head as the
   * station's keystore anchored it when exported (an unfiltered export ends at it), and the first
   * record chained with the key (those before it are an older station's, chained by SHA-256 alone).
   */
  'audit.export': {
    input: z.strictObject(filters),
    output: z.strictObject({
      fileName: z.string().regex(/^[A-Za-z0-9._-]{1,100}\.jsonl$/),
      mediaType: z.literal('application/x-ndjson'),
      recordCount: z.number().int().min(0),
      content: z.string(),
      head: z.strictObject({ seq: z.number().int().min(1), hash }).nullable(),
      keyedFrom: z.number().int().min(1),
    }),
  },
  /**
   * Walks the chain, each record's MAC under the key kept outside the database (SHA-256 for an older
   * station's records), then the head against the one the keystore anchored: an edited, removed,
   * renumbered or cut-off record breaks it, and the first bad one is named.
   */
  'audit.verify': {
    input: noInput,
    output: z.strictObject({
      intact: z.boolean(),
      recordCount: z.number().int().min(0),
      firstBrokenSeq: z.number().int().min(1).nullable(),
      checkedAt: timestamp,
    }),
  },
};
