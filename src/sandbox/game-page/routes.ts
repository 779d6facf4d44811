/**
 * The scripts of the platform's game page and the log of what a game asks of it:
 *   GET  /_sandbox/connect.js   routes the SDK's requests here, makes document.domain harmless (connect-script.ts)
 *   GET  /_sandbox/platform.js  the play page's `apiAuth` and `agi.v2`, store and quest notices (platform-script.ts)
 *   POST /_sandbox/agi          one call of the game through `agi.v2` (form: action, detail), noted in the
 *                               request log, so the dashboard's live log shows it
 *   GET  /favicon.ico           204: a browser asks for it on every page of the site, and a 404 would be a
 *                               failure in the request log (`sandbox logs --status 4xx`) nobody made
 * Like every route they answer only requests addressed to the sandbox (Host). connect.js is public:
 * any page may load it (the game host's pages, a studio's own server with `?direct=1`), and it
 * holds nothing but code. The other two are /_sandbox control routes, for the play page alone
 * (http/admin.ts: its own origin only).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { registerAdminRoute } from '../http/admin.js';
import { noteReason } from '../http/request-notes.js';
import { CONNECT_JS } from './connect-script.js';
import { CONNECT_PATH } from '../game-host/inject.js';
import { PLATFORM_JS } from './platform-script.js';
import { printable } from '../../printable.js';

export const PLATFORM_SCRIPT_PATH = '/_sandbox/platform.js';

/** What the request log may show of a game's message: bounded, by the one rule (printable.ts). */
function shownMessage(text: string, max: number): string {
  return printable(text.length > max ? `${text.slice(0, max)}…` : text);
}

function sendScript(reply: FastifyReply, source: string): FastifyReply {
  return reply
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('x-content-type-options', 'nosniff')
    .send(source);
}

export function registerGamePageRoutes(app: FastifyInstance): void {
  app.get(CONNECT_PATH, (_request, reply) => sendScript(reply, CONNECT_JS));
  app.get('/favicon.ico', (_request, reply) => reply.code(204).header('cache-control', 'max-age=86400').send());
  registerAdminRoute(app, {
    method: 'GET',
    path: '/platform.js',
    handler: (_request, reply) => sendScript(reply, PLATFORM_JS),
  });
  registerAdminRoute(app, {
    method: 'POST',
    path: '/agi',
    handler: (request, reply) => {
      const form = new URLSearchParams(typeof request.body === 'string' ? request.body : '');
      const action = shownMessage(form.get('action') ?? 'unknown', 64);
      const detail = shownMessage(form.get('detail') ?? '', 300);
      noteReason(request, `agi.v2 ${action}${detail === '' ? '' : ` ${detail}`}`);
      return reply.code(204).header('cache-control', 'no-store').send();
    },
  });
}
