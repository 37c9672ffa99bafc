// claims.*: the station's claims read back from SHA, their papers, and a returned claim sent back.
import type { ValidInput } from '../../contract';
import { attachPaper, byAttention, claimDetail, claimSummary, listClaims, isClaimHolder, readBack, removePaper, resubmitClaim, watchClaim, type ClaimHolder } from '../workflows/claims';
import { fail } from '../errors';
import type { Ctx } from '../workflows/context';
import { defineCommands, type StationServices } from './services';

export const claimsCommands = (s: StationServices) => {
  const command = s.workflowCommand;
  /** A command on one claim: read back (or acted on, then read back), then watched as its new state asks. */
  const onClaim = <I extends { workflowId: string }>(act: (c: Ctx, wf: ClaimHolder, input: I) => Promise<void>) =>
    command(
      ['visit', 'emergency'],
      async (wf, c, input: I) => {
        if (!isClaimHolder(wf)) fail('WRONG_STATE', 'SHA has no claim for this yet.', { state: (wf as { state: string }).state });
        await act(c, wf, input);
        watchClaim(c, wf);
        return wf;
      },
      (_wf, c, claim) => claimDetail(c, claim!),
      // A lost answer of an earlier request is settled by this claim's own read-back.
      { afterReconciling: 'run' },
    );
  return defineCommands({
    'claims.list': async (input: ValidInput<'claims.list'>) => {
      const c = s.ctx;
      const items = (await listClaims(c, input.checkWithSha === true)).map((wf) => claimSummary(c, wf)).sort(byAttention);
      return { items, needsNurse: items.filter((i) => i.attention !== 'none').length, closeToDeadline: items.filter((i) => i.resubmitBy?.closeToDeadline === true).length };
    },
    'claims.get': onClaim((c, wf) => readBack(c, wf)),
    'claims.attach': onClaim((c, wf, input: ValidInput<'claims.attach'>) => attachPaper(c, wf, input.interventionCode, input.document)),
    'claims.removeAttachment': onClaim((c, wf, input: ValidInput<'claims.removeAttachment'>) => removePaper(c, wf, input.attachmentId)),
    'claims.resubmit': onClaim((c, wf) => resubmitClaim(c, wf)),
  });
};
