/**
 * What the routes `/_sandbox/clock` and `/_sandbox/requests` act on, for a caller in the same
 * process (the `udcli/sandbox` API, src/sandbox/api/): the same clock and log those routes move
 * and read, reached without a request of its own in the log.
 */
import type { FastifyInstance } from 'fastify';
import type { RequestLog } from '../http/request-log.js';
import type { VirtualClock } from '../virtual-clock.js';
import { perApp } from './per-app.js';

export interface SandboxControls {
  clock: VirtualClock;
  requestLog: RequestLog;
}

const controls = perApp<SandboxControls>('controlsOf');

/** The clock and request log of an app buildApp made. */
export const controlsOf = (app: FastifyInstance): SandboxControls => controls.of(app);

export const keepControls = (app: FastifyInstance, found: SandboxControls): void => controls.keep(app, found);
