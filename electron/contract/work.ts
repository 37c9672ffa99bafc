// The ward's queue: every unfinished workflow with how long it has waited in its state and, where a
// doctor or SHA has answered something the nurse asked (a preauthorization, the SMS-code whitelist),
// that answer, so the screen can tell her. Deadlines are the views' own (`deadlines`).
import { z } from 'zod';
import { patientRef, timestamp } from './common';
import { workflowView } from './workflows';

/** An answer from outside the station that the nurse should hear about. */
export const workAnswer = z.strictObject({
  /** The attending doctor (a preauthorization's first approval) or SHA. */
  by: z.enum(['doctor', 'sha']),
  about: z.enum(['preauth', 'whitelist']),
  outcome: z.enum(['approved', 'rejected']),
  /** When the station learned it; null where the station keeps no time for it. */
  at: timestamp.nullable(),
});

export const workItem = z.strictObject({
  view: workflowView,
  /** When the workflow came into the state it is in: how long it has been waiting. */
  since: timestamp,
  /** The latest answer from the doctor or SHA on this workflow, if any. */
  answer: workAnswer.nullable(),
});

export const workCommands = {
  /** The queue, longest waiting first; optionally one patient's, or the finished ones too. */
  'work.queue': {
    input: z.strictObject({ patientRef: patientRef.optional(), includeEnded: z.boolean().optional() }),
    output: z.strictObject({ items: z.array(workItem) }),
  },
};

export type WorkItem = z.infer<typeof workItem>;
export type WorkAnswer = z.infer<typeof workAnswer>;
