/**
 * `GET /openapi.json`: the description generated from the routes (src/sandbox/openapi), and
 * `GET /docs`: a reference page over it, Swagger UI served from the kept npm package
 * (swagger-ui-dist), so it works offline; a strict CSP lets the page load nothing from
 * anywhere else. Both load their modules on the first request only.
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ApiRoute } from '../http/endpoint.js';
import { packageRequire } from '../../package-paths.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The files of swagger-ui-dist the page uses, with their types. */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>User Data REST Service: the udcli sandbox's API reference</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<link rel="icon" href="${DOCS_PATH}/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// No validator badge: it would call validator.swagger.io.
const INIT = `window.ui = SwaggerUIBundle({ url: '${OPENAPI_PATH}', dom_id: '#swagger-ui', validatorUrl: null, deepLinking: true });\n`;

function assetsDir(): string {
  return dirname(packageRequire.resolve('swagger-ui-dist/package.json'));
}

function send(reply: FastifyReply, type: string, body: string | Buffer, cache = 'no-store'): FastifyReply {
  return reply
    .header('content-type', type)
    .header('cache-control', cache)
    .header('content-security-policy', CSP)
    .header('x-content-type-options', 'nosniff')
    .send(body);
}

export function registerOpenApiRoutes(app: FastifyInstance, routes: readonly ApiRoute[]): void {
  let document: string | undefined;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    document ??= JSON.stringify((await import('../openapi/document.js')).buildOpenApiDocument(routes), null, 2);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(document);
  });
  app.get(DOCS_PATH, async (_request, reply) => send(reply, 'text/html; charset=utf-8', PAGE));
  app.get(`${DOCS_PATH}/init.js`, async (_request, reply) => send(reply, 'text/javascript; charset=utf-8', INIT));
  const cache = new Map<string, Buffer>();
  app.get<{ Params: { file: string } }>(`${DOCS_PATH}/:file`, async (request, reply) => {
    const { file } = request.params;
    // Own keys only: `__proto__`, `constructor` and the like are names on every object.
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    if (type === undefined)
      return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('not found');
    let body = cache.get(file);
    if (!body) {
      body = await readFile(join(assetsDir(), file));
      cache.set(file, body);
    }
    return send(reply, type, body, 'public, max-age=3600');
  });
}
