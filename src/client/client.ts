/**
 * The API client: one keep-alive pool per client (undici's Agent for a batch, node:http for a
 * one-shot command: http-dispatcher.ts), the retry loop, --verbose traces. The only module that
 * loads undici; the CLI imports it only when a command needs the network.
 */
import type { Agent as UndiciAgent } from 'undici';
import type * as Undici from 'undici';
import { readEnvelope, type ReplyContext } from './envelope.js';
import { createEndpoints, type Interpreter } from './endpoints.js';
import { describeFailure, toNetworkError } from './network-errors.js';
import { challengeLoop, MAX_SIGNED_ATTEMPTS, PLACEHOLDER_CHALLENGE, readChallenge } from './challenge.js';
import { buildRequest, type BuiltRequest } from './request-builder.js';
import { retryDecision } from './retry.js';
import { readSiteReply } from './site.js';
import { failureLine, replyLine, requestLine, retryLine } from './trace.js';
import { exchange, TransportFailure, type HttpResult } from './transport.js';
import { createHttpDispatcher } from './http-dispatcher.js';
import { markUnchanged, outcomeUnknown, type ApiError } from '../errors.js';
import { packageRequire } from '../package-paths.js';
import type { AgiChallenge } from '../domain/agi-signing.js';
import { ROUTES } from '../domain/contract.js';
import { API_PREFIX } from '../domain/types.js';
import type { ApiClient, ClientOptions, PreparedRequest, Reply, RequestSpec } from './types.js';

const USER_AGENT = `udcli (node ${process.version})`;

type AgentClass = typeof UndiciAgent;
let agentClass: AgentClass | undefined;

/**
 * undici's Agent without the rest of undici: `require('undici')` loads fetch, WebSocket, the
 * cache, mocks and more (~60 ms at start-up on a small machine), the Agent alone ~20 ms. undici
 * has no exports map, so its own module path works; if that ever changes, the full package.
 */
function loadAgent(): AgentClass {
  if (agentClass) return agentClass;
  const require = packageRequire;
  try {
    const Agent = require('undici/lib/dispatcher/agent.js') as AgentClass;
    if (typeof Agent === 'function' && typeof Agent.prototype.dispatch === 'function') return (agentClass = Agent);
  } catch {
    // moved or not exported: fall back to the package entry
  }
  return (agentClass = (require('undici') as typeof Undici).Agent);
}

/**
 * A request the service never takes unsigned (docs/SERVICE.md, Signatures): a product PUT, a
 * partner key's included. A partner key may send an achievement change unsigned, and a grant
 * (POST) takes no signature at all: sent unsigned, either is the change itself.
 */
function alwaysSigned(spec: RequestSpec): boolean {
  const override = spec.query?.find(([name]) => name === 'method')?.[1];
  const method = (override ?? spec.method).toUpperCase();
  return method === 'PUT' && spec.path.startsWith(`${API_PREFIX}/${ROUTES.products}/`);
}

export function createClient(options: ClientOptions): ApiClient {
  // A pool size means many requests (a batch): undici. Otherwise node:http (http-dispatcher.ts).
  const agent = options.connections === undefined ? createHttpDispatcher() : undiciAgent(options, options.connections);
  const nowSeconds = options.nowSeconds ?? ((): number => Date.now() / 1000);
  const sleep = options.sleep ?? ((ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms)));
  const trace = options.trace ?? ((): void => {});
  const tracing = options.trace !== undefined;
  const retries = Math.max(0, Math.floor(options.retries));
  let closed: Promise<void> | undefined;
  const harmlessErrors = new WeakSet<Error>();

  /**
   * One exchange of an already built request. `harmless`: known to change nothing (agi's unsigned
   * request to a server that challenges this client); `refused`: known to change nothing only
   * when the server's status refused it (a client's first unsigned request: its server may take
   * it unsigned, a partner key, and apply it).
   */
  async function send<R>(
    spec: RequestSpec,
    built: BuiltRequest,
    interpret: Interpreter<R>,
    harmless: boolean | 'refused' = false,
  ): Promise<R> {
    if (tracing) trace(requestLine(built.method, built.redactedUrl));
    const started = Date.now();
    const headers = {
      accept: 'application/json',
      'user-agent': USER_AGENT,
      ...built.headers,
      ...lowerCaseKeys(spec.headers),
    };
    // --har: every exchange as it went, the failed ones too (recorder redacts).
    const record = (response: HttpResult | undefined, failure?: string): void =>
      options.record?.({
        startedMs: started,
        elapsedMs: Date.now() - started,
        method: built.method,
        url: built.origin + built.pathAndQuery,
        requestHeaders: headers,
        ...(built.body !== undefined ? { requestBody: built.body } : {}),
        ...(response ? { response } : {}),
        ...(failure !== undefined ? { failure } : {}),
      });
    let res: HttpResult;
    try {
      res = await exchange(agent, {
        origin: built.origin,
        pathAndQuery: built.pathAndQuery,
        method: built.method,
        headers,
        ...(built.body !== undefined ? { body: built.body } : {}),
        timeoutMs: options.timeoutMs,
      });
    } catch (error) {
      if (!(error instanceof TransportFailure)) throw error;
      record(undefined, describeFailure(error));
      trace(failureLine(describeFailure(error), Date.now() - started, error.sent));
      const changedNothing = harmless === true || (harmless === 'refused' && error.status >= 400 && error.status < 500);
      throw toNetworkError(error, {
        method: built.method,
        target: built.target,
        timeoutMs: options.timeoutMs,
        idempotent: spec.idempotent || changedNothing,
        harmless: changedNothing,
      });
    }
    record(res);
    trace(replyLine(res.status, res.statusText, Date.now() - started, res.bytes));
    const ctx: ReplyContext = {
      method: built.method,
      target: built.target,
      nowMs: Date.now(),
      scheme: options.signer.scheme,
    };
    return interpret(res, ctx);
  }

  /** The server has answered this client's unsigned changes with a challenge (and not since without one). */
  let challenging = false;
  const gateErrors = new WeakSet<object>();

  /** A request's beforeChange hook; its failure means nothing was sent, and is not retried here. */
  async function pass(gate: () => Promise<void>): Promise<void> {
    try {
      await gate();
    } catch (error) {
      if (typeof error === 'object' && error !== null) gateErrors.add(error);
      throw markUnchanged(error);
    }
  }

  async function attempt<R>(spec: RequestSpec, interpret: Interpreter<R>): Promise<R> {
    if (spec.sign && options.signer.needsChallenge && spec.base !== 'site') return challenged(spec, interpret);
    if (spec.beforeChange) await pass(spec.beforeChange);
    // Built (and signed, with a fresh timestamp) per attempt; a missing secret throws here,
    // before anything is sent.
    return send(spec, buildRequest(spec, options, nowSeconds()), interpret);
  }

  /**
   * agi (SERVICE.md: Signatures): the request unsigned, which the server answers with a 401
   * challenge and which changes nothing; then at most MAX_SIGNED_ATTEMPTS signed attempts, each
   * with the fresh challenge the previous refusal carried. A signed attempt may change state, so
   * its failures go to the caller as they are (a lost reply of an increment is never re-sent).
   */
  async function challenged<R>(spec: RequestSpec, interpret: Interpreter<R>): Promise<R> {
    let challenge: AgiChallenge;
    // Only once the server has challenged this client is the unsigned request known to change
    // nothing: until then the hook runs first, as for any change.
    const early = challenging;
    if (spec.beforeChange && !early) await pass(spec.beforeChange);
    // Whether the unsigned request may itself be the change: not once this server has challenged
    // this client, nor where the contract always wants a signature.
    const mayApply = !early && !alwaysSigned(spec);
    try {
      // A server that does not ask for a signature (a partner key, an unsigned grant) answers at once.
      const reply = await send(spec, buildRequest(spec, options, nowSeconds()), interpret, mayApply ? 'refused' : true);
      challenging = false;
      return reply;
    } catch (error) {
      const found = readChallenge(error);
      if (!found) {
        // A refusal changed nothing. A lost reply (cut short, unreadable, a gateway's 502/504) of a
        // request that may have been the change itself is not repeated: its outcome is unknown.
        if (error instanceof Error && (!mayApply || !outcomeUnknown(error))) harmlessErrors.add(markUnchanged(error));
        throw error;
      }
      challenge = found;
      challenging = true;
    }
    if (spec.beforeChange && early) await pass(spec.beforeChange);
    for (let n = 1; ; n++) {
      try {
        return await send(spec, buildRequest(spec, options, nowSeconds(), challenge), interpret);
      } catch (error) {
        const found = readChallenge(error);
        if (!found) throw error;
        if (n >= MAX_SIGNED_ATTEMPTS) throw challengeLoop(error as ApiError, n);
        challenge = found;
        // As the platform's SDK does: 100 ms × attempt before the next signed attempt.
        await sleep(100 * n);
      }
    }
  }

  async function call<R>(spec: RequestSpec, interpret: Interpreter<R>): Promise<R> {
    if (closed) throw new Error('the API client is closed');
    for (let n = 0; ; n++) {
      try {
        return await attempt(spec, interpret);
      } catch (error) {
        if (typeof error === 'object' && error !== null && gateErrors.has(error)) throw error;
        // agi's unsigned first request changed nothing: it may be repeated like a read.
        const idempotent = spec.idempotent || (error instanceof Error && harmlessErrors.has(error));
        const decision = retryDecision({ error, attempt: n, retries, idempotent, random: Math.random });
        if (!decision) throw error;
        trace(retryLine(decision.reason, decision.delayMs, n + 2, retries + 1));
        await sleep(decision.delayMs);
      }
    }
  }

  function request<T>(spec: RequestSpec): Promise<Reply<T>> {
    return call(spec, spec.base === 'site' ? readSiteReply<T> : readEnvelope<T>);
  }

  function prepare(spec: RequestSpec): PreparedRequest {
    // agi: the server's session and key are not known before sending; show the signing with placeholders.
    const placeholder = spec.sign === true && options.signer.needsChallenge && spec.base !== 'site';
    const built = buildRequest(spec, options, nowSeconds(), placeholder ? PLACEHOLDER_CHALLENGE : undefined);
    const prepared: PreparedRequest = { method: built.method, url: built.url, redactedUrl: built.redactedUrl };
    if (built.canonical !== undefined) prepared.canonical = built.canonical;
    if (built.sortedValues !== undefined) prepared.sortedValues = built.sortedValues;
    if (placeholder) prepared.placeholderChallenge = true;
    if (Object.keys(built.headers).length > 0) prepared.headers = built.headers;
    return prepared;
  }

  function close(): Promise<void> {
    closed ??= agent.close();
    return closed;
  }

  /** A view whose every request first passes `beforeChange` (RequestSpec.beforeChange). */
  function gated(beforeChange: () => Promise<void>): ApiClient {
    const gatedRequest = <T>(spec: RequestSpec): Promise<Reply<T>> => request<T>({ ...spec, beforeChange });
    const gatedCall = <R>(spec: RequestSpec, interpret: Interpreter<R>): Promise<R> =>
      call({ ...spec, beforeChange }, interpret);
    return {
      request: gatedRequest,
      prepare,
      ...createEndpoints({ request: gatedRequest, call: gatedCall }),
      gated,
      close,
    };
  }

  return { request, prepare, ...createEndpoints({ request, call }), gated, close };
}

function undiciAgent(options: ClientOptions, connections: number): UndiciAgent {
  const Agent = loadAgent();
  return new Agent({
    connections,
    connect: { timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
}

function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}
