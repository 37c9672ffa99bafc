// The wire recorder (test/support/wire-recorder.ts) over real HTTP: what it records of each body
// encoding, its stand-in and proxy modes, and the exchange client's own requests through it.
import { afterEach, describe, expect, it } from 'vitest';
import { createExchangeClient } from '../../../electron/payer';
import { startWireRecorder, type WireRecorder } from '../../support/wire-recorder';
import { startScriptedExchange, type ScriptedExchange } from './helpers/scripted-exchange';
import { requestExamples, responseExamples } from './helpers/wire-examples';

let recorder: WireRecorder | undefined;
let exchange: ScriptedExchange | undefined;
afterEach(async () => {
  await recorder?.close();
  await exchange?.close();
  recorder = undefined;
  exchange = undefined;
});

const echo = () => startWireRecorder({ standIn: (r) => ({ status: 200, json: { seen: r.path }, operation: 'test.echo' }) });

describe('the recorder in stand-in mode', () => {
  it('records a JSON body, the query with repeated names, the headers, and its own answer', async () => {
    recorder = await echo();
    const response = await fetch(`${recorder.url}/api/v1/things?page=2&code=a&code=b`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer T' },
      body: JSON.stringify({ patient_id: 'CR1', nested: { a: [1] } }),
    });
    expect(await response.json()).toEqual({ seen: '/api/v1/things' });
    expect(recorder.records).toHaveLength(1);
    expect(recorder.records[0]).toMatchObject({
      seq: 1,
      method: 'POST',
      path: '/api/v1/things',
      query: { page: ['2'], code: ['a', 'b'] },
      headers: { authorization: 'Bearer T' },
      body: { encoding: 'json', value: { patient_id: 'CR1', nested: { a: [1] } } },
      answer: { status: 200, json: { seen: '/api/v1/things' } },
      operation: 'test.echo',
    });
  });

  it('records a form body field by field and an empty body as none', async () => {
    recorder = await echo();
    await fetch(`${recorder.url}/token`, { method: 'POST', body: new URLSearchParams({ client_id: 'c', grant_type: 'client_credentials' }) });
    await fetch(`${recorder.url}/empty`, { method: 'POST', headers: { 'content-type': 'application/json' } });
    expect(recorder.records.map((r) => r.body)).toEqual([{ encoding: 'form', fields: { client_id: ['c'], grant_type: ['client_credentials'] } }, { encoding: 'none' }]);
  });

  it('records multipart text parts apart from file parts, with each file’s name, type and size', async () => {
    recorder = await echo();
    const form = new FormData();
    form.append('consent_token', 'CT-1');
    form.append('diagnoses', '["CA40"]');
    form.append('attachments_0_file_blob', new Blob([new Uint8Array([37, 80, 68, 70])], { type: 'application/pdf' }), 'lab.pdf');
    await fetch(`${recorder.url}/lines`, { method: 'POST', body: form });
    expect(recorder.records[0]?.body).toEqual({
      encoding: 'multipart',
      fields: { consent_token: ['CT-1'], diagnoses: ['["CA40"]'] },
      files: [{ field: 'attachments_0_file_blob', fileName: 'lab.pdf', contentType: 'application/pdf', size: 4 }],
    });
  });

  it('records what its content type cannot read, and answers text and empty bodies as told', async () => {
    recorder = await startWireRecorder({ standIn: (r) => (r.path === '/text' ? { status: 200, text: 'Doctor removed' } : { status: 204 }) });
    const text = await fetch(`${recorder.url}/text`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(await text.text()).toBe('Doctor removed');
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    const empty = await fetch(`${recorder.url}/empty`, { method: 'DELETE' });
    expect(empty.status).toBe(204);
    expect(recorder.records[0]?.body).toMatchObject({ encoding: 'other', contentType: 'application/json', problem: expect.stringMatching(/^not JSON/) });
    expect(recorder.records.map((r) => r.answer?.text)).toEqual(['Doctor removed', '']);
  });

  it('answers 502 RECORDER_FAILED when its stand-in throws, and records that', async () => {
    recorder = await startWireRecorder({
      standIn: () => {
        throw new Error('no answer for this');
      },
    });
    const response = await fetch(`${recorder.url}/x`);
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: 'RECORDER_FAILED', message: 'no answer for this' });
    expect(recorder.records[0]?.answer?.status).toBe(502);
  });

  it('marks a point in the recording to read what came after it', async () => {
    recorder = await echo();
    await fetch(`${recorder.url}/a`);
    const mark = recorder.mark();
    await fetch(`${recorder.url}/b`);
    expect(recorder.since(mark).map((r) => r.path)).toEqual(['/b']);
  });
});

describe('the recorder in proxy mode', () => {
  it('forwards method, path, query, headers and body to the target and its answer back, recording both', async () => {
    exchange = await startScriptedExchange({
      routes: { 'POST /api/v1/claims/otp': (r) => ({ status: 201, json: { got: r.json, q: r.query.get('x') }, headers: { 'x-trace-id': 'trace-9' } }) },
    });
    recorder = await startWireRecorder({ target: exchange.url });
    const response = await fetch(`${recorder.url}/api/v1/claims/otp?x=1`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-facility-id': 'F-1' }, body: '{"patient_id":"CR1"}' });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-trace-id')).toBe('trace-9');
    expect(await response.json()).toEqual({ got: { patient_id: 'CR1' }, q: '1' });
    expect(exchange.requests[0]?.headers['x-facility-id']).toBe('F-1');
    expect(recorder.records[0]).toMatchObject({ body: { encoding: 'json', value: { patient_id: 'CR1' } }, answer: { status: 201, json: { got: { patient_id: 'CR1' }, q: '1' } } });
  });

  it('carries the exchange client’s calls: the form-encoded token, then a multipart line with its file part', async () => {
    const [answer] = responseExamples['claims.addBilling'];
    exchange = await startScriptedExchange({ routes: { 'POST /api/v1/claims/lines': () => ({ status: 201, json: answer }) } });
    recorder = await startWireRecorder({ target: exchange.url });
    const client = createExchangeClient({ baseUrl: recorder.url, credentials: { clientId: 'demo-hospital', clientSecret: 'demo-hospital-secret' }, retry: { attempts: 1 } });
    try {
      await client.claims.addBilling(requestExamples['claims.addBilling'] as Parameters<typeof client.claims.addBilling>[0]);
    } finally {
      await client.close();
    }
    const [token, line] = recorder.records;
    expect(token).toMatchObject({ path: '/api/v1/tenants/token', body: { encoding: 'form', fields: { client_id: ['demo-hospital'] } }, answer: { status: 201 } });
    expect(line?.body.encoding).toBe('multipart');
    if (line?.body.encoding !== 'multipart') return;
    expect(line.body.fields.consent_token).toEqual(['CT-1']);
    expect(line.body.files).toHaveLength(1);
    expect(line.body.files[0]).toMatchObject({ fileName: 'lab.pdf', contentType: 'application/pdf', size: 5 });
    expect(line.answer?.status).toBe(201);
  });
});
