/**
 * Every /services/rest/v1 reply of the sandbox tests checked against the OpenAPI description
 * (issue 11: no reply that breaks the description): the operation the request went to must list
 * the reply's status, and the JSON body must match that status's schema. A reply that does not
 * is turned into a failure the test sees (a 500 whose message says what broke), and is told on
 * stderr. Test-only: the sandbox itself never pays for it.
 */
import type { FastifyInstance } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import { API_PREFIX } from '../../../src/domain/types.js';
import { buildOpenApiDocument } from '../../../src/sandbox/openapi/document.js';
import { API_ROUTES } from '../../../src/sandbox/routes/index.js';

interface Operation {
  /** No content: a reply without a body (the 204 of the CORS preflight). */
  responses: Record<string, { content?: { 'application/json': { schema: unknown } } }>;
}
export interface Description {
  paths: Record<string, Record<string, Operation>>;
}

let description: Description | undefined;
let matchers: Array<{ template: string; re: RegExp }> = [];
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

export function servedDescription(): Description {
  if (!description) {
    description = buildOpenApiDocument(API_ROUTES) as unknown as Description;
    matchers = Object.keys(description.paths).map((template) => ({
      template,
      re: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[a-z_]+\}/g, '[^/]+')}$`),
    }));
  }
  return description;
}

/** The described path a request path is, if any. */
export function templateOf(path: string): string | undefined {
  servedDescription();
  return matchers.find((m) => m.re.test(path))?.template;
}

/** What is wrong with a JSON reply by the description, or null when nothing is. */
export function replyProblem(method: string, path: string, status: number, text: string): string | null {
  const doc = servedDescription();
  const template = templateOf(path);
  const described =
    template === undefined ? undefined : doc.paths[template]![method.toLowerCase()]?.responses[String(status)];
  // The preflight answers anywhere under the prefix (the call it precedes gets the 404).
  if (template === undefined && method === 'OPTIONS' && status === 204 && text === '') return null;
  if (described && !described.content)
    return text === ''
      ? null
      : `${method} ${template} ${status}: a body where the description has none: ${text.slice(0, 100)}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${method} ${path} ${status}: not JSON: ${text.slice(0, 100)}`;
  }
  const envelopeOf = (b: unknown) => b as { version?: unknown; code?: unknown; payload?: unknown };
  if (template === undefined) {
    // A path outside the description: not found, in the envelope.
    const e = envelopeOf(body);
    return status === 404 && e.code === 404 && e.payload === null
      ? null
      : `${method} ${path}: undescribed path answered ${status}`;
  }
  const op = doc.paths[template]![method.toLowerCase()];
  if (!op) {
    // A verb the path does not take: 405 in the error envelope (400 when its `method` parameter is bad: checked first;
    // 415 for a POST whose body is not a form: its `method` override, if any, could not be read).
    const e = envelopeOf(body);
    return (status === 405 || status === 400 || (status === 415 && method === 'POST')) &&
      e.version === 1 &&
      e.code === status &&
      e.payload === null
      ? null
      : `${method} ${template}: a verb it does not take answered ${status}`;
  }
  const response = op.responses[String(status)];
  if (!response)
    return `${method} ${template} answered ${status}, which the description does not list (${Object.keys(op.responses).join(', ')})`;
  const key = `${method} ${template} ${status}`;
  const validate = validators.get(key) ?? ajv.compile(response.content!['application/json'].schema as object);
  validators.set(key, validate);
  return validate(body) ? null : `${key}: ${ajv.errorsText(validate.errors)}: ${text.slice(0, 300)}`;
}

/** Checks every JSON reply under /services/rest/v1 of `app` (before it listens). */
export function checkRepliesAgainstDescription(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0]!;
    if (!path.startsWith(API_PREFIX) || path.endsWith('.xml') || request.method === 'HEAD') return payload;
    // A reply without a body (the preflight's 204) comes as no payload at all.
    if (typeof payload !== 'string' && !(payload === undefined || payload === null)) return payload;
    const text = typeof payload === 'string' ? payload : '';
    const problem = replyProblem(request.method, path, reply.statusCode, text);
    if (problem === null) return payload;
    process.stderr.write(`reply breaks the OpenAPI description: ${problem}\n`);
    reply.code(500);
    return JSON.stringify({
      version: 1,
      code: 500,
      message: `reply breaks the OpenAPI description: ${problem}`,
      payload: null,
    });
  });
}
