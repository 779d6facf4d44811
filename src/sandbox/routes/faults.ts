/** `GET /_sandbox/faults`: the spec and seed the sandbox runs with, and the faults it applied. */
import type { FastifyInstance } from 'fastify';
import type { FaultInjector } from '../faults/injector.js';
import { registerAdminRoute } from '../http/admin.js';

export const FAULTS_PATH = '/faults';

export function registerFaultRoutes(app: FastifyInstance, faults: FaultInjector): void {
  registerAdminRoute(app, { method: 'GET', path: FAULTS_PATH, handler: () => faults.summary() });
}
