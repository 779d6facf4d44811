/**
 * The OpenAPI 3.1 description of /services/rest/v1, generated from the rows of the endpoint table
 * (src/domain/endpoints.ts: key and signature rules, parameter declarations, payload schemas) that
 * the pipeline's routes serve (API_ROUTES), never kept by hand. Loaded only when /openapi.json is first asked for.
 */
import { FORM_CONTENT_TYPE } from '../../domain/contract.js';
import { NONCE_PATTERN, TIMESTAMP_WINDOW_SECONDS } from '../../domain/signing.js';
import { CHALLENGE_TTL_MS } from '../http/challenges.js';
import { API_PREFIX } from '../../domain/types.js';
import type { ApiMethod, ApiRoute, BoundEndpoint } from '../http/endpoint.js';
import { QUERY, type ParamSpec, type ValueSchema } from '../http/parameters.js';
import { CHALLENGE } from '../http/payloads.js';

/**
 * Statuses every operation may answer: a bad parameter, a key or signature problem, a path the
 * service lacks (any format but json or xml), a wrong verb, a body too large or unreadable, the
 * rate limit, an unexpected failure, a database another process holds locked; and 403 for a Host
 * header that does not name the sandbox.
 */
const COMMON_ERRORS = [400, 401, 403, 404, 405, 413, 415, 429, 500, 503];

const ERROR_TEXT: Record<number, string> = {
  400: '`missing parameter: NAME`, `invalid parameter: NAME (why)` or `ambiguous parameter: NAME (query and body differ)`',
  401: 'missing or unknown api_key, a missing signature, or under agi the challenge: the payload holds the session and key to sign the retry with',
  403: "a refused signature (the sandbox says what it computed), the api_key acts on another game, a game save's `invalid auth_token`, or a Host header that does not name the sandbox (DNS rebinding: localhost, 127.0.0.1, [::1] or its own address, with its port)",
  404: 'no such user, game, achievement or product, or no such path (a format other than json or xml)',
  405: 'a verb the path does not take (a GET never becomes a PUT or DELETE)',
  409: 'more units taken than the user holds, a save past 100 keys per user and game, or a change of a Revoked quest; nothing changed',
  413: 'a body over 1 MiB (parameters travel in the query or a form body)',
  415: 'a POST whose body is not a form (`application/x-www-form-urlencoded`), or a Content-Type that cannot be read',
  429: 'rate limited; Retry-After says when to try again',
  500: '`internal error`: an unexpected failure, no details (the sandbox logs it)',
  503: "`database busy`: another process (a seed, load or restore) held the database's write lock too long; nothing changed; Retry-After says when to try again",
};

function envelopeSchema(payload: ValueSchema): ValueSchema {
  return {
    type: 'object',
    properties: {
      version: { type: 'integer', const: 1 },
      code: { type: 'integer' },
      message: { type: 'string' },
      payload,
    },
    required: ['version', 'code', 'message', 'payload'],
    additionalProperties: false,
  };
}

/** Headers every reply under the prefix carries (SERVICE.md: CORS), and those some statuses add. */
/** A header whose value is always the same. */
const always = <const V extends string>(value: V, description: string) =>
  ({ description, schema: { type: 'string', const: value } }) as const;

const HEADERS = {
  AccessControlAllowOrigin: always('*', 'Always `*`: any site may read the reply (games call from their own site).'),
  AccessControlExposeHeaders: always(
    'Retry-After, Allow',
    'The headers a cross-origin caller may read beyond the safelisted ones.',
  ),
  AccessControlAllowMethods: always('GET, POST, PUT, DELETE', 'The verbs a cross-origin caller may send.'),
  AccessControlAllowHeaders: always('Content-Type, Accept', 'The request headers a cross-origin caller may send.'),
  AccessControlMaxAge: always('600', 'Seconds a browser may keep this preflight.'),
  RetryAfter: { description: 'Seconds to wait before trying again.', schema: { type: 'string', pattern: '^[0-9]+$' } },
  Allow: { description: 'The verbs the path takes.', schema: { type: 'string' } },
} as const;

const ref = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });

function headersOf(code: number): Record<string, unknown> {
  return {
    'Access-Control-Allow-Origin': ref('AccessControlAllowOrigin'),
    'Access-Control-Expose-Headers': ref('AccessControlExposeHeaders'),
    ...(code === 429 || code === 503 ? { 'Retry-After': ref('RetryAfter') } : {}),
    ...(code === 405 ? { Allow: ref('Allow') } : {}),
  };
}

function content(payload: ValueSchema, code: number): Record<string, unknown> {
  const schema = envelopeSchema(payload);
  return {
    'application/json': {
      schema: { ...schema, properties: { ...(schema.properties as object), code: { type: 'integer', const: code } } },
    },
    'application/xml': {
      schema: { type: 'string', description: 'The same envelope as XML (`.xml` in place of `.json`).' },
    },
  };
}

function parameter(spec: ParamSpec): Record<string, unknown> {
  return { name: spec.name, in: spec.in, required: spec.required, description: spec.description, schema: spec.schema };
}

const SIGNATURE_PARAMS: ParamSpec[] = [
  {
    name: 'timestamp',
    in: 'query',
    required: false,
    schema: { type: 'string', pattern: '^[0-9]{1,12}$' },
    description: `hmac-sha256-v1: Unix seconds, within ${TIMESTAMP_WINDOW_SECONDS} s of the server clock.`,
  },
  {
    name: 'nonce',
    in: 'query',
    required: false,
    schema: { type: 'string', pattern: NONCE_PATTERN.source },
    description:
      'hmac-sha256-v1: random per request, signed like any parameter, so that identical requests differ (a signature is good for one request).',
  },
  {
    name: 'signature',
    in: 'query',
    required: false,
    schema: { type: 'string' },
    description: 'hmac-sha256-v1: hex HMAC-SHA256 of the canonical string (see the securitySchemes).',
  },
  {
    name: 'session',
    in: 'query',
    required: false,
    schema: { type: 'string' },
    description: 'agi: the session of the challenge (the 401 payload).',
  },
  {
    name: 'sig',
    in: 'query',
    required: false,
    schema: { type: 'string' },
    description: 'agi: md5 of the sorted values (see the securitySchemes).',
  },
];

const METHOD_OVERRIDE: ParamSpec = {
  name: 'method',
  in: 'query',
  required: false,
  schema: { type: 'string', pattern: '^(?:[Gg][Ee][Tt]|[Pp][Uu][Tt]|[Dd][Ee][Ll][Ee][Tt][Ee])$' },
  description:
    'The verb meant, as the platform SDK sends PUT and DELETE: a POST with method=put or method=delete (parameters in the query or a form body) is that verb; on a GET only method=get is accepted.',
};

function securityOf(ep: BoundEndpoint): Array<Record<string, string[]>> {
  const key: Array<Record<string, string[]>> = ep.row.apiKey === 'required' ? [{ apiKey: [] }] : [{}, { apiKey: [] }];
  if (ep.row.signature === 'none') return key;
  const signed: Array<Record<string, string[]>> = [
    { apiKey: [], agi: [] },
    { apiKey: [], hmac: [] },
  ];
  return ep.row.signature === 'partner-may-omit' ? [...signed, { partnerKey: [] }] : signed;
}

function operation(
  route: ApiRoute,
  method: ApiMethod,
  ep: BoundEndpoint,
  extra: { override?: boolean } = {},
): Record<string, unknown> {
  // A POST may be any verb of the route by its `method` parameter, so it answers their errors too.
  const errors = extra.override ? Object.values(route.methods).flatMap((e) => e.row.errors) : ep.row.errors;
  const params: ParamSpec[] = [
    ...(hasElement(route) ? [ep.row.element] : []),
    ep.row.apiKey === 'required' ? QUERY.apiKey : QUERY.apiKeyOptional,
    ...ep.row.parameters,
    ...(ep.row.signature === 'none' ? [] : SIGNATURE_PARAMS),
    ...(extra.override ? [METHOD_OVERRIDE] : []),
  ];
  // Its 200 is likewise any of their replies (method=get on a POST lists, as a GET would).
  const payloads = extra.override
    ? [...new Set(Object.values(route.methods).map((e) => e.row.payload))]
    : [ep.row.payload];
  const responses: Record<string, unknown> = {
    200: {
      description: 'OK',
      headers: headersOf(200),
      content: content(payloads.length === 1 ? payloads[0]! : { anyOf: payloads }, 200),
    },
  };
  for (const code of [...new Set([...COMMON_ERRORS, ...errors])].sort((a, b) => a - b)) {
    const payload = code === 401 ? { anyOf: [{ type: 'null' }, CHALLENGE] } : { type: 'null' };
    responses[code] = {
      description: ERROR_TEXT[code] ?? 'error',
      headers: headersOf(code),
      content: content(payload, code),
    };
  }
  const query = params.filter((p) => p.in === 'query');
  return {
    operationId: operationId(method, route),
    summary: ep.row.summary,
    parameters: [FORMAT, ...params.map(parameter)],
    // The platform reads a POST's parameters from a form body as from the query (the SDK sends a
    // game save's data there); a name in both must have one value.
    ...(extra.override ? { requestBody: formBody(query) } : {}),
    security: securityOf(ep),
    responses,
  };
}

const FORMAT = {
  name: 'format',
  in: 'path',
  required: true,
  schema: { type: 'string', enum: ['json', 'xml'] },
  description: 'The reply format.',
};

/** Whether the path has a placeholder (else its fixed last segment is all there is). */
const hasElement = (route: ApiRoute): boolean => route.template.includes('{');

/** The verb and the template's fixed segments: `getUsers`, `getUsersStats`, `getAuthenticateUser`. */
function operationId(method: string, route: ApiRoute): string {
  const fixed = `/${route.template}`.replace(/\/\{[^}]+\}/g, '');
  return `${method.toLowerCase()}${fixed.replace(/[^A-Za-z]+(.)/g, (_, c: string) => c.toUpperCase())}`;
}

/** The operation's query parameters, any of which may come as fields of a form body instead. */
function formBody(query: ParamSpec[]): Record<string, unknown> {
  const properties = Object.fromEntries(query.map((p) => [p.name, { ...p.schema, description: p.description }]));
  return {
    required: false,
    description:
      'Any parameter may come as a field of a form body instead of the query (the same name in both with different ' +
      'values is 400 `ambiguous parameter`); a body of any other type is 415. Up to 1 MiB; a field may be longer than ' +
      "a query value. Both signing schemes sign the body's fields.",
    content: { [FORM_CONTENT_TYPE]: { schema: { type: 'object', properties } } },
  };
}

/** The CORS preflight a browser sends before a call it may not send outright. */
function preflight(route: ApiRoute, element: ParamSpec | null): Record<string, unknown> {
  return {
    operationId: operationId('OPTIONS', route),
    summary: 'CORS preflight: which verbs and request headers a page of another site may send',
    parameters: [FORMAT, ...(element ? [parameter(element)] : [])],
    security: [],
    responses: {
      204: {
        description: 'No content: the CORS headers only (nothing runs, nothing is counted).',
        headers: {
          ...headersOf(204),
          'Access-Control-Allow-Methods': ref('AccessControlAllowMethods'),
          'Access-Control-Allow-Headers': ref('AccessControlAllowHeaders'),
          'Access-Control-Max-Age': ref('AccessControlMaxAge'),
        },
      },
    },
  };
}

const DESCRIPTION = `The User Data REST Service as the udcli sandbox implements it. Every reply is an envelope
\`{version, code, message, payload}\` whose code is the HTTP status. Parameters travel in the query string
or as fields of an \`application/x-www-form-urlencoded\` body, alike (a PUT or DELETE may also come as a POST
with \`method=put|delete\`, as the platform SDK sends them). Changes are signed with one of two schemes (see
the security schemes); a game accepts agi, hmac-sha256-v1, or both. Every reply may be read by a page of any
site (\`Access-Control-Allow-Origin: *\`, never with credentials); \`OPTIONS\` is the CORS preflight.`;

const SECURITY_SCHEMES = {
  apiKey: {
    type: 'apiKey',
    in: 'query',
    name: 'api_key',
    description: "The game's api key. It acts on its own game only (403 otherwise).",
  },
  agi: {
    type: 'apiKey',
    in: 'query',
    name: 'sig',
    description:
      "agi, the platform SDK's scheme, by challenge: send the request unsigned; the 401 reply's payload holds `{session, key}`. " +
      'Send it again with `session` and `sig` added: the MD5 (hex) of the query values except `sig`, the form-body values, ' +
      'the session, the key, the static secret `Shield2` and the file name at the end of the path, stringified, sorted with ' +
      `JavaScript's default sort, joined and lower-cased. A session is good for one request, for ${CHALLENGE_TTL_MS / 1000} s, with the key it ` +
      'was handed out for.',
  },
  hmac: {
    type: 'apiKey',
    in: 'query',
    name: 'signature',
    description:
      "hmac-sha256-v1: `signature` = hex HMAC-SHA256 with the game's signing secret over the canonical string " +
      '`METHOD\\nPATH\\nSORTED_QUERY` (every parameter but `signature`, those of the query and of a form body sorted ' +
      'together by name, percent-encoded), with `timestamp` ' +
      `within ${TIMESTAMP_WINDOW_SECONDS} s of the server clock and a random \`nonce\`; a signature is good for one request.`,
  },
  partnerKey: {
    type: 'apiKey',
    in: 'query',
    name: 'api_key',
    description: 'A partner key may change achievements unsigned.',
  },
};

export function buildOpenApiDocument(routes: readonly ApiRoute[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const anyEp = Object.values(route.methods)[0]!;
    // The template's placeholder is the element's name (domain/endpoints.ts).
    const key = `${API_PREFIX}/${route.template}.{format}`;
    const item: Record<string, unknown> = {};
    for (const [method, ep] of Object.entries(route.methods) as Array<[ApiMethod, BoundEndpoint]>) {
      item[method.toLowerCase()] = operation(route, method, ep, { override: method === 'POST' });
    }
    // A route without a POST of its own is also reached by POST with method=get|put|delete.
    const overridden = (['PUT', 'DELETE'] as const).filter((m) => route.methods[m]);
    if (!route.methods.POST && overridden.length > 0) {
      const reachable = (['GET', 'PUT', 'DELETE'] as const).filter((m) => route.methods[m]);
      const op = operation(route, overridden[0]!, route.methods[overridden[0]!]!, { override: true });
      item.post = {
        ...op,
        operationId: `${String(op.operationId)}ByPost`,
        // Without its own POST, a POST needs the override (400 `missing parameter: method`).
        parameters: (op.parameters as Array<Record<string, unknown>>).map((p) =>
          p.name === 'method' ? { ...p, required: true } : p,
        ),
        summary: `${reachable.join(', ')} sent as a POST with method=${reachable.map((m) => m.toLowerCase()).join('|')} (the platform SDK's form for PUT and DELETE)`,
      };
    }
    item.options = preflight(route, hasElement(route) ? anyEp.row.element : null);
    paths[key] = item;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'User Data REST Service (udcli sandbox)', version: '1', description: DESCRIPTION },
    servers: [{ url: '/' }],
    paths,
    components: { securitySchemes: SECURITY_SCHEMES, headers: HEADERS },
  };
}
