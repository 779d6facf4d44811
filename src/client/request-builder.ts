/**
 * Turns a RequestSpec into the exact request to send: origin, path, query in the given order
 * (api_key first), signature when asked. Pure: no network, so prepare() (--dry-run) and the
 * sender share it.
 */
import { UsageError } from '../errors.js';
import { redactUrl } from '../redact.js';
import { rfc3986 } from '../spec/signing.js';
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
}

type BuilderOptions = Pick<ClientOptions, 'baseUrl' | 'siteUrl' | 'apiKey' | 'signer'>;

export function buildRequest(spec: RequestSpec, options: BuilderOptions, nowSeconds: number): BuiltRequest {
  const site = spec.base === 'site';
  const base = parseBase(site ? (options.siteUrl ?? options.baseUrl) : options.baseUrl, site);

  // A path given with its own query (e.g. `udcli api GET '/x.json?a=b'`) keeps those parameters.
  const [rawPath = '', pathQuery] = splitOnce(spec.path, '?');
  const path = base.prefix + (rawPath.startsWith('/') ? rawPath : `/${rawPath}`);

  let params: Array<[string, string]> = [];
  if (!site && !spec.withoutApiKey && options.apiKey) params.push(['api_key', options.apiKey]);
  if (pathQuery !== undefined) {
    for (const [n, v] of new URLSearchParams(pathQuery)) params.push([n, v]);
  }
  for (const [n, v] of spec.query ?? []) params.push([n, v]);

  let canonical: string | undefined;
  if (spec.sign) {
    const signed = options.signer.sign(spec.method, path, params, nowSeconds);
    params = signed.params;
    canonical = signed.canonical;
  }

  const query = params.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
  const pathAndQuery = query ? `${path}?${query}` : path;
  const url = base.origin + pathAndQuery;
  const built: BuiltRequest = {
    method: spec.method,
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
  return built;
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
