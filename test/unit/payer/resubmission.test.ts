// A returned claim resubmitted through whichever documented form the exchange serves: against real
// HTTP stand-ins that serve one form each, the client tries the forms in order and moves on only
// where the exchange says the route does not exist (405, or 404 while the preview finds the claim);
// never on another refusal, never where the exchange may have done the work.
import { describe, expect, it } from 'vitest';
import { isExchangeError, resubmissionForms, resubmitReturnedClaim, type ExchangeClient, type ResubmissionForm } from '../../../electron/payer';
import { useScriptedClient } from './helpers/scripted-client';
import type { Answer, Route, ScriptedExchange } from './helpers/scripted-exchange';

const ROUTE: Record<ResubmissionForm, string> = {
  'claims.resubmit': 'POST /api/v1/claims/lines/resubmit',
  'claims.resubmitAtPostmanPath': 'POST /api/v1/claims/resubmit',
  'claims.resubmitBySubmit': 'POST /api/v1/claims/submit',
};
const PREVIEW = 'POST /api/v1/claims/preview';
const token = { consent_token: 'CT-RETURNED' };
const claim = { authorization_code: 'CT-RETURNED', workflow_state: 'DRAFT_RESUBMIT', invoices: [{ invoice_number: 'INV-1', lines: [] }], claim_diagnoses: [], claim_attachments: [], total_claim_amount: 0 };
const served: Record<ResubmissionForm, Answer> = {
  'claims.resubmit': { status: 200, json: { line_id: 'L-1', status: 'DRAFT_RESUBMIT', message: 'Claim reopened', resubmitted_at: '2026-11-28T10:00:00Z' } },
  'claims.resubmitAtPostmanPath': { status: 200, json: { line_id: 'L-1', status: 'DRAFT_RESUBMIT', message: 'Claim reopened' } },
  'claims.resubmitBySubmit': { status: 200, json: claim },
};
const refused = (status: number, error: string): Answer => ({ status, json: { error, message: `refused with ${status}`, trace_id: 't' } });

const start = useScriptedClient({ attempts: 1 });
let exchange: ScriptedExchange | undefined;

/** A stand-in exchange with the preview and the given routes; every other route answers 404 (its default). */
async function standIn(routes: Record<string, Route>): Promise<ExchangeClient> {
  const started = await start({ routes: { [PREVIEW]: () => ({ status: 200, json: claim }), ...routes } }, { timeoutMs: 2000 });
  exchange = started.exchange;
  return started.client;
}

const seen = () => (exchange?.requests ?? []).map((r) => `${r.method} ${r.path}`);

describe('resubmitting a returned claim against stand-ins that serve one form each', () => {
  it.each(resubmissionForms.map((form, i) => [form, i] as const))('reaches %s, having tried the forms before it', async (form, position) => {
    const c = await standIn({ [ROUTE[form]]: () => served[form] });
    const done = await resubmitReturnedClaim(c, token);
    expect(done).toMatchObject({ form, missing: resubmissionForms.slice(0, position), state: 'DRAFT_RESUBMIT' });
    // Each earlier route answered 404; the preview, asked once, found the claim, so the 404s were the routes'.
    const earlier = resubmissionForms.slice(0, position).map((f) => ROUTE[f]);
    expect(seen()).toEqual(position === 0 ? [ROUTE[form]] : [earlier[0], PREVIEW, ...earlier.slice(1), ROUTE[form]]);
    expect(exchange?.to(ROUTE[form])[0]?.json).toEqual(token);
  });

  it('tries the form this exchange took last time first', async () => {
    const c = await standIn({ [ROUTE['claims.resubmitBySubmit']]: () => served['claims.resubmitBySubmit'] });
    const done = await resubmitReturnedClaim(c, token, { remembered: 'claims.resubmitBySubmit' });
    expect(done).toMatchObject({ form: 'claims.resubmitBySubmit', missing: [] });
    expect(seen()).toEqual([ROUTE['claims.resubmitBySubmit']]);
  });

  it('moves on from a remembered form the exchange no longer serves', async () => {
    const c = await standIn({ [ROUTE['claims.resubmitAtPostmanPath']]: () => served['claims.resubmitAtPostmanPath'] });
    const done = await resubmitReturnedClaim(c, token, { remembered: 'claims.resubmitBySubmit' });
    expect(done).toMatchObject({ form: 'claims.resubmitAtPostmanPath', missing: ['claims.resubmitBySubmit', 'claims.resubmit'] });
  });

  it('takes 405 as "no such route" without asking the preview', async () => {
    const c = await standIn({
      [ROUTE['claims.resubmit']]: () => refused(405, 'Method Not Allowed'),
      [ROUTE['claims.resubmitAtPostmanPath']]: () => served['claims.resubmitAtPostmanPath'],
    });
    expect((await resubmitReturnedClaim(c, token)).form).toBe('claims.resubmitAtPostmanPath');
    expect(seen()).not.toContain(PREVIEW);
  });
});

describe('never moves on where it must not', () => {
  it('stops at a 404 when the preview does not find the claim either: no such claim, not no such route', async () => {
    const c = await standIn({ [PREVIEW]: () => refused(404, 'NOT_FOUND'), [ROUTE['claims.resubmitBySubmit']]: () => served['claims.resubmitBySubmit'] });
    const error = await resubmitReturnedClaim(c, token).catch((e: unknown) => e);
    expect(isExchangeError(error) && error.status).toBe(404);
    expect(seen()).toEqual([ROUTE['claims.resubmit'], PREVIEW]);
  });

  it.each([
    [400, 'VALIDATION_ERROR'],
    [409, 'INVALID_TRANSITION'],
    [422, 'DOCUMENTS_MISSING'],
    [503, 'SERVICE_UNAVAILABLE'],
  ])('stops at any other answer (%i %s): a refusal of the request, or an exchange that cannot take it now', async (status, code) => {
    const c = await standIn({ [ROUTE['claims.resubmit']]: () => refused(status, code), [ROUTE['claims.resubmitBySubmit']]: () => served['claims.resubmitBySubmit'] });
    const error = await resubmitReturnedClaim(c, token).catch((e: unknown) => e);
    expect(isExchangeError(error) && [error.status, error.code]).toEqual([status, code]);
    expect(seen()).toEqual([ROUTE['claims.resubmit']]);
  });

  it.each([
    ['a 502', () => refused(502, 'BAD_GATEWAY')],
    ['a lost connection', () => ({ drop: true }) as const],
    ['an unreadable 2xx', () => ({ status: 200, text: 'not json' })],
  ])('stops at %s: the exchange may have done the work', async (_what, answer: Route) => {
    const c = await standIn({ [ROUTE['claims.resubmit']]: answer, [ROUTE['claims.resubmitBySubmit']]: () => served['claims.resubmitBySubmit'] });
    const error = await resubmitReturnedClaim(c, token).catch((e: unknown) => e);
    expect(isExchangeError(error) && error.outcomeUnknown).toBe(true);
    expect(seen()).toEqual([ROUTE['claims.resubmit']]);
  });

  it('stops when the preview cannot say whether the claim exists, with the preview’s failure', async () => {
    const c = await standIn({ [PREVIEW]: () => refused(503, 'SERVICE_UNAVAILABLE'), [ROUTE['claims.resubmitBySubmit']]: () => served['claims.resubmitBySubmit'] });
    const error = await resubmitReturnedClaim(c, token).catch((e: unknown) => e);
    expect(isExchangeError(error) && [error.operation, error.status]).toEqual(['claims.preview', 503]);
    expect(seen()).toEqual([ROUTE['claims.resubmit'], PREVIEW]);
  });

  it('says so, naming every route tried, when the exchange serves none of them', async () => {
    const c = await standIn({});
    const error = await resubmitReturnedClaim(c, token).catch((e: unknown) => e);
    expect(isExchangeError(error) && error.kind).toBe('not_found');
    expect(String((error as Error).message)).toContain('/api/v1/claims/lines/resubmit, POST /api/v1/claims/resubmit, POST /api/v1/claims/submit');
    expect(seen().filter((r) => r === PREVIEW)).toHaveLength(1);
  });
});
