import type { HttpMethod, RequestSpec } from '../../../client/types.js';
import type { Factory } from '../../../ops/factory.js';
import { ApiError } from '../../../errors.js';
import {
  HTTP_METHODS,
  hasParam,
  parseApiPath,
  parseChoice,
  parseFieldPairs,
  redactCanonical,
} from '../../../ops/args.js';
import { isSecretParam, redact, redactUrl } from '../../../redact.js';
import { printable } from '../../../printable.js';
import { confirmMutation } from '../../../ops/safety.js';
import { gateRawChange } from '../../../batch/policy-gate.js';
import { auditEntry } from '../../../audit/log.js';
import { openTrail } from '../../../audit/trail.js';
import { parseWhy, type Why } from '../../../batch/flags.js';
import type { Settings } from '../../../config/types.js';
import { outcomeUnknown } from '../../../errors.js';

export interface ApiOptions {
  field?: string[];
  sign?: boolean;
  dryRun?: boolean;
  reason?: string;
  ticket?: string;
}

/** The `method` fields of a request (the path's query and -f), in order; the name in any case. */
function methodFields(spec: RequestSpec): string[] {
  return (spec.query ?? []).filter(([name]) => name.toLowerCase() === 'method').map(([, value]) => value);
}

/**
 * Whether the request may change data, judged as the least careful server would act on it: only a
 * GET carrying no `method` field, or one `method=get`, is a read. Any other verb is a change even
 * with `method=get` (a server that honours no override on a DELETE deletes); so is any other
 * override, and two `method` fields (servers differ in which one they take). Site requests (login,
 * the token generator) are judged the same: the path says where a request goes, not what it does.
 */
export function changesData(spec: RequestSpec): boolean {
  if (spec.method !== 'GET') return true;
  const overrides = methodFields(spec);
  return overrides.length > 1 || (overrides.length === 1 && overrides[0]!.toLowerCase() !== 'get');
}

/** The request as the production banner names it: the verb, the path and any `method` field. */
function described(spec: RequestSpec): string {
  const overrides = methodFields(spec).map((value) => `method=${printable(value)}`);
  return `${spec.method} ${spec.path}${overrides.length > 0 ? ` (${overrides.join(', ')})` : ''}`;
}

/** Builds the request `udcli api` sends, from already-given arguments. Throws UsageError. */
export function buildRequest(args: { method: string; path: string }, opts: ApiOptions): RequestSpec {
  const method = parseChoice<HttpMethod>(args.method, 'method', HTTP_METHODS);
  const { path, query, base } = parseApiPath(args.path);
  const params = [...query, ...parseFieldPairs(opts.field ?? [])];
  // A `method` parameter overrides the verb on the server (spec 4.3): a GET carrying method=put
  // is a PUT there, so only a plain GET or DELETE is treated as safe to repeat.
  const overridden = params.some(([name]) => name.toLowerCase() === 'method');
  const spec: RequestSpec = {
    method,
    path,
    query: params,
    idempotent: !overridden && (method === 'GET' || method === 'DELETE'),
    base,
  };
  if (opts.sign) spec.sign = true;
  // An api_key given with -f replaces the profile's instead of being sent twice.
  if (hasParam(params, 'api_key')) spec.withoutApiKey = true;
  return spec;
}

/** The user a path names (`users/<uid>.json`, `achievements/user/<uid>.json`): its last 32-hex segment, else `-`. */
export function uidOfPath(path: string): string {
  const found = path.match(/(?<=\/)[0-9a-fA-F]{32}(?=[./]|$)/g);
  return found ? found.at(-1)!.toLowerCase() : '-';
}

/** The command line the audit keeps: the path, each parameter as `-f name=value` (secrets redacted), the flags. */
function auditedArgv(spec: RequestSpec, opts: ApiOptions, why: Why): string[] {
  return [
    'api',
    spec.method,
    spec.path,
    ...(spec.query ?? []).flatMap(([name, value]) => ['-f', `${name}=${value}`]),
    ...(opts.sign ? ['--sign'] : []),
    ...(why.reason === undefined ? [] : ['--reason', why.reason]),
    ...(why.ticket === undefined ? [] : ['--ticket', why.ticket]),
  ];
}

export async function run(factory: Factory, args: { method: string; path: string }, opts: ApiOptions): Promise<void> {
  const spec = buildRequest(args, opts);
  const changes = !opts.dryRun && changesData(spec);
  let settings: Settings | undefined;
  let why: Why = {};
  if (changes || opts.reason !== undefined || opts.ticket !== undefined) {
    settings = await factory.settings();
    why = parseWhy(opts, changes && settings.requireReason ? { profile: settings.profile } : null);
  }
  if (changes) {
    // The team profile's operator and bounds, before the confirmation and before anything is sent.
    gateRawChange(factory, settings!, why);
    await confirmMutation(factory, settings!, described(spec));
  }
  const client = await factory.client();
  const out = await factory.output();

  if (opts.dryRun) {
    const prepared = client.prepare(spec);
    const agi = prepared.sortedValues !== undefined;
    const hide = secretHider(prepared.url);
    const shown = {
      method: prepared.method,
      url: redactUrl(prepared.redactedUrl),
      ...(prepared.headers ? { headers: prepared.headers } : {}),
      ...(prepared.canonical === undefined || agi ? {} : { canonical: redactCanonical(prepared.canonical) }),
      ...(agi
        ? {
            scheme: 'agi',
            sorted_values: (prepared.sortedValues ?? []).map(hide),
            joined: hide(prepared.canonical ?? ''),
            placeholder_session_and_key: prepared.placeholderChallenge === true,
          }
        : {}),
    };
    const explicit = factory.globals().output;
    if (explicit === 'json' || explicit === 'ndjson') {
      out.item(shown, [
        { key: 'method', header: 'METHOD', cell: (r) => r.method },
        { key: 'url', header: 'URL', cell: (r) => r.url },
        { key: 'canonical', header: 'CANONICAL', cell: (r) => r.canonical ?? r.joined ?? '' },
      ]);
      return;
    }
    out.text(`${shown.method} ${shown.url}`);
    for (const [name, value] of Object.entries(shown.headers ?? {})) out.text(`${name}: ${value}`);
    if (shown.canonical !== undefined) {
      out.text('');
      out.text('canonical string (signed):');
      for (const line of shown.canonical.split('\n')) out.text(`  ${line}`);
    }
    if (shown.sorted_values !== undefined) {
      out.text('');
      if (shown.placeholder_session_and_key) {
        out.text('agi: SESSION and KEY are placeholders; the server hands out a fresh session and key');
        out.text('(its 401 challenge to the unsigned request) when the request is really sent');
      }
      out.text('sorted values (signed):');
      for (const value of shown.sorted_values) out.text(`  ${value}`);
      out.text('joined, lower-cased (sig is its MD5):');
      out.text(`  ${shown.joined}`);
    }
    out.info('dry run: nothing was sent');
    return;
  }

  // A change is audited as every other change is: the trail is opened before anything is sent (one
  // that cannot be written stops it), its intent written ahead, and its outcome line closes it.
  const log = changes ? await openTrail(factory.io.env, settings, factory.io) : null;
  const audit = (kind: 'intent' | 'change' | 'failed' | 'unknown', change: string, after: unknown, closes?: string) =>
    log?.append(
      auditEntry({
        env: factory.io.env,
        ...(settings!.operator !== undefined ? { operator: settings!.operator } : {}),
        profile: settings!.profile,
        server: settings!.baseUrl,
        argv: auditedArgv(spec, opts, why),
        uid: uidOfPath(spec.path),
        subject: `api ${spec.method} ${spec.path}`,
        before: null,
        after,
        change,
        undo: null,
        kind,
        ...(closes !== undefined ? { closes } : {}),
        ...why,
      }),
    );
  const intent = await audit('intent', `${spec.method} ${spec.path}: about to be sent`, null);
  try {
    const reply = await out.spin(`${spec.method} ${spec.path}`, () => client.request(spec));
    await audit('change', `${spec.method} ${spec.path}: HTTP ${reply.httpStatus}`, reply.payload ?? null, intent);
    out.raw(reply.bodyText);
  } catch (err) {
    // Refused by the server (an error envelope) or never sent: nothing changed, which closes the intent.
    if (log !== null) {
      if (outcomeUnknown(err))
        await audit('unknown', `${spec.method} ${spec.path}: sent, outcome unknown`, null, intent);
      else await audit('failed', `${spec.method} ${spec.path}: not applied (${errorText(err)})`, null, intent);
    }
    // Print what the server sent, then let main map the error to its exit code.
    if (err instanceof ApiError && err.bodyText !== undefined && err.bodyText !== '') out.raw(err.bodyText);
    throw err;
  } finally {
    await log?.close();
  }
}

/** A refusal's words for its trail line: one line, bounded. */
function errorText(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);
}

/**
 * Redacts, inside agi's signed values, every value of a secret query parameter (api_key,
 * auth_token, ...) of the URL, in either case: the joined string is lower-cased.
 */
function secretHider(url: string): (text: string) => string {
  const q = url.indexOf('?');
  const secrets =
    q < 0
      ? []
      : [...new URLSearchParams(url.slice(q + 1))]
          .filter(([name, value]) => isSecretParam(name) && name !== 'sig' && name !== 'session' && value.length > 8)
          .map(([, value]) => value);
  return (text) => {
    let out = text;
    for (const secret of secrets) {
      out = out.split(secret).join(redact(secret)).split(secret.toLowerCase()).join(redact(secret.toLowerCase()));
    }
    return out;
  };
}
