// Claims, one module per endpoint group; a new claim route goes in its group's module (or a new
// group's, registered here).
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../../context';
import { billingRoutes } from './billing';
import { dispatchRoutes } from './dispatch';
import { interventionRoutes } from './interventions';
import { resubmissionRoutes } from './resubmission';
import { visitRoutes } from './visit';

export { newClaim } from './records';

export function claimRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  visitRoutes(app, ctx);
  billingRoutes(app, ctx);
  interventionRoutes(app, ctx);
  dispatchRoutes(app, ctx);
  resubmissionRoutes(app, ctx);
}
