/**
 * Turns a RequestSpec into the exact request to send: origin, path, query in the given order
 * (api_key first), signature when asked. Pure: no network, so prepare() (--dry-run) and the
 * sender share it.
 */
import { UsageError } from '../errors.js';
import { redactUrl } from '../redact.js';
import type { AgiChallenge } from '../domain/agi-signing.js';
import { FORM_CONTENT_TYPE, PARAMS } from '../domain/contract.js';
import { rfc3986, type QueryParams } from '../domain/signing.js';
import type { ClientOptions, HttpMethod, RequestSpec } from './types.js';

export interface BuiltRequest {
  method: HttpMethod;
  /** scheme://host:port */
  origin: string;
  /** Path and query as sent on the request line. */
  pathAndQuery: string;
  /** The full URL, secrets included. */
  url: string;
  /** The full URL with secret parameters redacted (traces). */
  redactedUrl: string;
  /** Origin and path without the query: safe for error messages. */
  target: string;
  canonical?: string;
  sortedValues?: string[];
  /** Headers the request needs beyond the defaults (the form content type of a verb override or a body). */
  headers: Record<string, string>;
  /** The form-encoded body, when the spec has one. */
  body?: string;
}

type BuilderOptions = Pick<ClientOptions, 'baseUrl' | 'siteUrl' | 'apiKey' | 'signer' | 'verbOverride'>;

/**
 * `challenge`: the agi session and key to sign with; an agi-signed spec without one is sent
 * unsigned (the first request, which the server answers with the challenge).
 */
export function buildRequest(
  spec: RequestSpec,
  options: BuilderOptions,
  nowSeconds: number,
  challenge?: AgiChallenge,
): BuiltRequest {
  const site = spec.base === 'site';
  const base = parseBase(site ? (options.siteUrl ?? options.baseUrl) : options.baseUrl, site);

  // A path given with its own query (e.g. `udcli api GET '/x.json?a=b'`) keeps those parameters.
  const [rawPath = '', pathQuery] = splitOnce(spec.path, '?');
  const path = base.prefix + (rawPath.startsWith('/') ? rawPath : `/${rawPath}`);

  let params: Array<[string, string]> = [];
  if (!site && !spec.withoutApiKey && options.apiKey) params.push([PARAMS.apiKey, options.apiKey]);
  if (pathQuery !== undefined) {
    for (const [n, v] of new URLSearchParams(pathQuery)) params.push([n, v]);
  }
  for (const [n, v] of spec.query ?? []) params.push([n, v]);

  let method = spec.method;
  const headers: Record<string, string> = {};
  if (!site && options.verbOverride && (method === 'PUT' || method === 'DELETE')) {
    // As the platform's SDK sends it: POST, the verb in `method=`, a form content type.
    if (!params.some(([name]) => name === PARAMS.method)) params.push([PARAMS.method, method.toLowerCase()]);
    method = 'POST';
    headers['content-type'] = FORM_CONTENT_TYPE;
  }

  const bodyFields = spec.body ?? [];
  if (bodyFields.length > 0) {
    // A form body is what the platform's SDK sends a save's data in; only a POST carries one.
    if (method !== 'POST') throw new Error(`a form body needs POST, not ${method}`);
    headers['content-type'] = FORM_CONTENT_TYPE;
  }

  let canonical: string | undefined;
  let sortedValues: string[] | undefined;
  if (spec.sign && (!options.signer.needsChallenge || challenge)) {
    const signed = options.signer.sign(method, path, params, nowSeconds, challenge, bodyFields);
    params = signed.params;
    canonical = signed.canonical;
    sortedValues = signed.sortedValues;
  }

  const query = params.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
  const pathAndQuery = query ? `${path}?${query}` : path;
  const url = base.origin + pathAndQuery;
  const built: BuiltRequest = {
    method,
    headers,
    origin: base.origin,
    pathAndQuery,
    url,
    // Only traces and --dry-run read it: computed on demand, not for every request of a batch.
    get redactedUrl() {
      return redactUrl(url);
    },
    target: base.origin + path,
  };
  if (canonical !== undefined) built.canonical = canonical;
  if (sortedValues !== undefined) built.sortedValues = sortedValues;
  if (bodyFields.length > 0) built.body = formBody(bodyFields);
  return built;
}

/** `a=1&b=x%20y`: RFC 3986 encoding, which form decoders read back exactly (a space never becomes `+`). */
export function formBody(fields: QueryParams): string {
  return fields.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
}

function parseBase(value: string, site: boolean): { origin: string; prefix: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`invalid ${site ? 'site' : 'base'} URL: ${value}`, {
      hint: `set it with --base-url or the profile's ${site ? 'site_url' : 'base_url'} (e.g. http://127.0.0.1:8787)`,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`invalid ${site ? 'site' : 'base'} URL: ${value} (only http and https are supported)`);
  }
  return { origin: url.origin, prefix: url.pathname.replace(/\/+$/, '') };
}

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const at = value.indexOf(separator);
  return at < 0 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
}
