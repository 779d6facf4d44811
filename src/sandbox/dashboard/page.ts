/**
 * The sandbox dashboard at `/`: its games, a user search with a user's achievements and
 * holdings, the live request log, and links to the play pages. The page is a fixed shell; its
 * script and stylesheet come from the sandbox itself and fill it from the `/_sandbox` JSON
 * endpoints (api.ts), so the CSP allows nothing inline and nothing from elsewhere, and the page
 * works offline.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PLAY_PATH } from '../constants.js';
import type { Repositories } from '../repositories/index.js';
import { registerDashboardApi } from './api.js';
import { DASHBOARD_JS } from './client.js';
import { DASHBOARD_CSS } from './style.js';

export const DASHBOARD_PATH = '/';
export const DASHBOARD_ASSETS = {
  script: '/dashboard/dashboard.js',
  style: '/dashboard/dashboard.css',
  icon: '/dashboard/icon.svg',
} as const;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" fill="#1d2330"/>' +
  '<path d="M16 44V20h8l8 14 8-14h8v24h-7V31l-9 15-9-15v13z" fill="#fff"/></svg>';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>udcli sandbox</title>
<link rel="icon" href="${DASHBOARD_ASSETS.icon}" type="image/svg+xml">
<link rel="stylesheet" href="${DASHBOARD_ASSETS.style}">
<script src="${DASHBOARD_ASSETS.script}" defer></script>
</head>
<body>
<header><h1>udcli sandbox</h1><span class="tag">dashboard</span>
<nav><a href="${PLAY_PATH}">Play pages</a></nav></header>
<noscript><p>The dashboard needs JavaScript. Its data is plain JSON: <a href="/_sandbox/games">/_sandbox/games</a>.</p></noscript>
<main>
<section id="games" class="wide"><h2>Games</h2><p id="holds" class="muted"></p><div id="games-body"><p class="muted">Loading…</p></div></section>
<section id="users" class="wide"><h2>Users</h2><div class="users-grid"><div>
<form id="user-search" class="search" role="search"><input id="user-q" name="q" placeholder="username prefix or uid" aria-label="username prefix or uid" autocomplete="off" maxlength="64" required><button type="submit">Search</button></form>
<ul id="user-results" class="results"></ul></div>
<div id="user-detail"><p class="empty">Search for a user, then pick one to see their achievements and holdings.</p></div>
</div></section>
<section id="requests" class="wide"><h2>Request log</h2>
<div class="log-bar"><span id="log-status" class="status muted">Connecting…</span><label><input type="checkbox" id="log-own"> Show the dashboard's own files <span id="log-own-count" class="muted"></span></label><label><input type="checkbox" id="log-pause"> Pause</label><button type="button" id="log-clear">Clear</button></div>
<div class="log-scroll"><table id="log" class="hide-own"><colgroup><col class="c-time"><col class="c-method"><col class="c-path"><col class="c-status"><col class="c-ms"><col class="c-reason"></colgroup><thead><tr><th>Time (UTC)</th><th>Method</th><th>Path</th><th class="num">Status</th><th class="num">ms</th><th>Reason</th></tr></thead><tbody id="log-body"></tbody></table></div>
</section>
</main>
</body>
</html>
`;

function send(reply: FastifyReply, type: string, body: string): FastifyReply {
  return (
    reply
      .header('content-type', type)
      // Served from memory and small: always fresh, so a new build's page never meets an old script.
      .header('cache-control', 'no-cache')
      .header('x-content-type-options', 'nosniff')
      .send(body)
  );
}

function methodNotAllowed(request: FastifyRequest, reply: FastifyReply): FastifyReply | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  return reply
    .code(405)
    .header('allow', 'GET, HEAD')
    .header('content-type', 'text/plain; charset=utf-8')
    .send('405 method not allowed: GET only\n');
}

export function registerDashboard(app: FastifyInstance, repos: Repositories): void {
  const methods = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
  app.route({
    method: methods,
    url: DASHBOARD_PATH,
    handler: (request, reply) =>
      methodNotAllowed(request, reply) ??
      send(
        reply.header('content-security-policy', CSP).header('referrer-policy', 'no-referrer'),
        'text/html; charset=utf-8',
        PAGE,
      ),
  });
  const assets: Array<[string, string, string]> = [
    [DASHBOARD_ASSETS.script, 'text/javascript; charset=utf-8', DASHBOARD_JS],
    [DASHBOARD_ASSETS.style, 'text/css; charset=utf-8', DASHBOARD_CSS],
    [DASHBOARD_ASSETS.icon, 'image/svg+xml', ICON_SVG],
  ];
  for (const [url, type, body] of assets) {
    app.route({ method: ['GET', 'HEAD'], url, handler: (_request, reply) => send(reply, type, body) });
  }
  registerDashboardApi(app, repos);
}
