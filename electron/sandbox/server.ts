// The fastify application: cross-cutting hooks (trace id, fault injection, tenant context, error
// bodies) and the route groups, one module per resource.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { SandboxContext } from './context';
import { ExchangeError, errorBody, fail, fromFrameworkError } from './errors';
import { claimRoutes } from './routes/claims';
import { consentRoutes } from './routes/consent';
import { doctorConsentRoutes } from './routes/doctor-consent';
import { controlRoutes } from './routes/control';
import { ekycRoutes } from './routes/ekyc';
import { emergencyRoutes } from './routes/emergency';
import { patientRoutes } from './routes/patients';
import { preauthRoutes } from './routes/preauths';
import { prescriptionRoutes } from './routes/prescriptions';
import { registryRoutes } from './routes/registry';
import { callbackEndpointRoutes, tokenRoutes } from './routes/tenants';
import { authenticate } from './tenancy';
import { MAX_ATTACHMENT_BYTES } from './uploads';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export function isLoopback(request: FastifyRequest): boolean {
  return LOOPBACK.test(request.socket.remoteAddress ?? '');
}

export async function buildServer(ctx: SandboxContext): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
  });

  // An empty JSON body counts as {} (e.g. the authorization reject, which takes no body).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const textBody = typeof body === 'string' ? body : body.toString('utf8');
    if (textBody.trim() === '') {
      done(null, {});
      return;
    }
    try {
      done(null, JSON.parse(textBody) as unknown);
    } catch {
      done(fail.field('body', 'the body is not valid JSON'), undefined);
    }
  });
  await app.register(formbody);
  await app.register(multipart, {
    limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 10, fields: 50, fieldSize: 1024 * 1024, parts: 70 },
  });

  // Calls a rule lets through to their handler whose answer is then lost on the way back.
  const answersToLose = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-trace-id', request.id);
    if (!request.url.startsWith('/api/')) return;
    const decision = ctx.faults.decide(request.method, request.url, request.routeOptions.url);
    if (decision.latencyMs > 0) await sleep(decision.latencyMs);
    const failure = decision.failure;
    if (failure === null) return;
    if (failure.loseAnswer) {
      answersToLose.add(request);
      return;
    }
    if (failure.resetConnection) {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    const injected = new ExchangeError(failure.status, failure.code, `Injected fault (${failure.status}) on ${request.method} ${request.url.split('?')[0] ?? ''}`);
    return reply.code(failure.status).send(errorBody(injected, request.id));
  });

  // The work is done (state changed, callbacks announced); the connection drops before the answer.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (answersToLose.has(request)) request.raw.socket.destroy();
    return payload;
  });

  app.setErrorHandler((error, request, reply) => {
    const e = fromFrameworkError(error);
    if (e.status === 500 && !(error instanceof ExchangeError)) {
      process.stderr.write(`idhini sandbox: ${request.method} ${request.routeOptions.url ?? request.url} failed: ${String((error as Error).stack ?? error)}\n`);
    }
    return reply.code(e.status).send(errorBody(e, request.id));
  });

  app.setNotFoundHandler((request, reply) => {
    const route = `${request.method} ${request.url.split('?')[0] ?? ''}`;
    return reply.code(404).send(errorBody(fail.notFound(`No route ${route}`, [{ route }]), request.id));
  });

  app.get('/', async () => ({
    service: 'idhini-sandbox',
    description: 'Conformance sandbox of the national payer exchange (training mode)',
    api: `${ctx.baseUrl}/api/v1`,
    control: `${ctx.baseUrl}/sandbox`,
  }));

  await app.register(
    async (api) => {
      tokenRoutes(api, ctx);
    },
    { prefix: '/api/v1' },
  );
  await app.register(
    async (api) => {
      api.addHook('onRequest', async (request) => {
        authenticate(ctx, request);
      });
      callbackEndpointRoutes(api, ctx);
      patientRoutes(api, ctx);
      consentRoutes(api, ctx);
      doctorConsentRoutes(api, ctx);
      preauthRoutes(api, ctx);
      claimRoutes(api, ctx);
      emergencyRoutes(api, ctx);
      prescriptionRoutes(api, ctx);
      registryRoutes(api, ctx);
    },
    { prefix: '/api/v1' },
  );
  await app.register(
    async (control) => {
      control.addHook('onRequest', async (request) => {
        if (!isLoopback(request)) throw fail.forbidden('The sandbox control API answers loopback callers only');
      });
      controlRoutes(control, ctx);
    },
    { prefix: '/sandbox' },
  );
  await app.register(
    async (page) => {
      ekycRoutes(page, ctx);
    },
    { prefix: '/ekyc' },
  );
  return app;
}
