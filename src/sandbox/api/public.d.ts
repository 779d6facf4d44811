/**
 * `udcli/sandbox`: a sandbox of your own in your tests, in your test process (docs/TESTING.md).
 *
 *   const sandbox = await startSandbox({ data: 'test/seed.yaml' });
 *   // sandbox.url, sandbox.apiKey, sandbox.env() ...
 *   await sandbox.reset();   // between tests
 *   await sandbox.stop();    // at the end (or `await using sandbox = await startSandbox()`)
 *
 * This file is shipped as the package's types (dist/sandbox-api.d.mts, .d.cts) and is what src/sandbox/api/ implements.
 */

/**
 * A data file's contents as an object: what `udcli sandbox init` writes as YAML, e.g.
 * `{ games: [{ id: '2001', name: 'Racers', keys: [{ api_key: '…', signing_secret: '…' }] }], users: [...] }`
 * (every field: docs/SANDBOX.md, "Your own data").
 */
export interface SandboxData {
  games?: unknown[];
  users?: unknown[];
  [field: string]: unknown;
}

export interface SandboxOptions {
  /** A data file (YAML or JSON; a path), or its contents as an object, loaded instead of the demo data. */
  data?: string | SandboxData;
  /** Without `data`: 'demo' (default) seeds the demo data, 'none' leaves the sandbox empty. */
  seed?: 'demo' | 'none';
  /** Port to listen on (127.0.0.1); default 0, any free port. */
  port?: number;
  /**
   * The database: ':memory:' (default) or a file, which keeps its contents after stop(); with `data`, whatever the
   * file held is replaced by the data.
   */
  db?: string;
  /** Hold every API reply this long, as a network round trip would: ms, or a duration such as '40ms' (at most 10 s). */
  latency?: number | string;
  /** Faults to inject into the API's replies, as `sandbox start --faults` takes them: 'reset=0.1,slow=0.2:1500ms'. */
  faults?: string;
  /** The seed of the fault draws: the same seed faults the same requests of the same sequence; default random. */
  faultSeed?: number;
  /** Answer 429 beyond this many requests per second per api key; default no limit. */
  rateLimit?: number;
  /** Lifetime of tokens from the token generator, in seconds; default 900. */
  tokenTtl?: number;
  /** The sandbox's clock starts at this time (and reset() puts it back there); default the real time. */
  clock?: Date | string | number;
  /**
   * Run it as a child process (`udcli sandbox start`), where a test wants it out of its own process (its own
   * event loop, a crash of its own); default false, in this process. The handle is the same; reset() then seeds
   * again (tens of ms) rather than putting back only what changed.
   */
  process?: boolean;
}

/**
 * What another process needs to reach a sandbox (a plain object: JSON, vitest's provide(), an environment
 * variable): its URLs and its game's credentials. `connectSandbox(connection)` turns it back into a handle.
 */
export interface SandboxConnection {
  url: string;
  gameUrl: string;
  gameId: string;
  apiKey: string;
  signingSecret: string;
  signingScheme: 'agi' | 'hmac-sha256-v1';
}

/**
 * A test worker's own game in a shared sandbox: a copy of the sandbox's game (its definitions and every player's
 * progress, holdings, plays and saves in it) under its own id, api key and signing secret. The players are the
 * sandbox's; what they do in this game is the worker's alone.
 */
export interface SandboxWorker {
  readonly id: string;
  readonly url: string;
  readonly gameUrl: string;
  /** `<the sandbox's game>.w-<id>`. */
  readonly gameId: string;
  readonly apiKey: string;
  readonly signingSecret: string;
  /** The sandbox's users (the first 1000). */
  readonly users: readonly SandboxUser[];
  /** UDCLI_* variables that point a `udcli` command at this worker's game. */
  env(): Record<string, string>;
  /** Back to a fresh copy of the sandbox's game; other workers' games and the sandbox's own are left alone. */
  reset(): Promise<void>;
}

/** A sandbox another process started, reached through its connection. */
export interface SandboxRemote {
  readonly url: string;
  readonly gameUrl: string;
  readonly gameId: string;
  readonly apiKey: string;
  readonly signingSecret: string;
  env(): Record<string, string>;
  /** This worker's own game (made fresh: a worker that had one gets a new copy). */
  worker(id: string | number): Promise<SandboxWorker>;
}

export interface SandboxGame {
  id: string;
  name: string;
  /** Its first api key, or '' when it has none. */
  apiKey: string;
  signingSecret: string;
}

export interface SandboxUser {
  uid: string;
  username: string;
}

/** A request the sandbox answered, as `udcli sandbox logs` shows it (secrets redacted). */
export interface SandboxRequest {
  id: number;
  /** When the reply went out (the wall clock, not the sandbox's virtual one), ISO-8601 UTC. */
  time: string;
  method: string;
  path: string;
  /** The query as sent, secrets redacted; empty when none. */
  query: string;
  /** A form body's fields, secrets redacted and long values cut (`data=%7B…[length=300000]`); empty when none. */
  body: string;
  status: number;
  /** Milliseconds, one decimal. */
  ms: number;
  /** Why the request failed (a noted reason or the failure's message); null when it did not. */
  reason: string | null;
  /**
   * Its part in the agi handshake, only when it has one: `challenge` is an unsigned request the
   * challenge (401 "signature required") answered and whose signed retry came; `retry` is that retry.
   */
  handshake?: 'challenge' | 'retry';
  /** On a retry: the id of the challenge it answered. */
  challengeId?: number;
}

export interface SandboxClock {
  /** The sandbox's time now. */
  now(): Promise<Date>;
  /** Puts the clock at this time (forwards or backwards). */
  set(time: Date | string | number): Promise<Date>;
  /** Moves the clock forward: ms, or a duration such as '901s', '15m', '2h', '1d'. */
  advance(by: number | string): Promise<Date>;
  /** Back to the real time. */
  reset(): Promise<Date>;
}

export interface Sandbox {
  /** http://127.0.0.1:PORT: the service's base URL (`/services/rest/v1/...`) and the site's. */
  readonly url: string;
  /** Where game content is served (an origin of its own). */
  readonly gameUrl: string;
  readonly port: number;
  /** The game a client uses by default (the data's one game, the demo game, else the first with a key), or ''. */
  readonly gameId: string;
  /** That game's api key; '' when no game has one. */
  readonly apiKey: string;
  readonly signingSecret: string;
  /** The games it holds now, with their first key. */
  readonly games: readonly SandboxGame[];
  /** The users it holds now (the first 1000). */
  readonly users: readonly SandboxUser[];
  /** With `faults`: the seed of the draws (give it as faultSeed to replay a run). */
  readonly faultSeed: number | undefined;
  /** The sandbox's virtual clock (token, session and challenge expiry, the signing window). */
  readonly clock: SandboxClock;
  /**
   * Back to the start: the data it started with (or of the last load()), the clock it started with, and
   * requests() empty. Snapshots are kept.
   */
  reset(): Promise<void>;
  /** Replaces everything it holds with this data (a file or an object); reset() returns here from now on. */
  load(data: string | SandboxData): Promise<void>;
  /** Saves what it holds now under `name` (letters, digits, - _ .), for restore(name). */
  snapshot(name: string): Promise<void>;
  /** Puts back what snapshot(name) saved. */
  restore(name: string): Promise<void>;
  /**
   * The requests it answered since it started or was last reset (at most the last 1000), oldest first; with
   * `process: true`, none of its control routes (`/_sandbox/...`, which the handle itself calls).
   */
  requests(): Promise<SandboxRequest[]>;
  /** UDCLI_* variables that point a `udcli` command (a child process's environment) at this sandbox. */
  env(): Record<string, string>;
  /** What a test worker in another process passes to connectSandbox() (e.g. through vitest's provide/inject). */
  readonly connection: SandboxConnection;
  /**
   * A test worker's own game in this sandbox (made fresh: a worker that had one gets a new copy), for test files
   * that share one sandbox and must not see each other's changes.
   */
  worker(id: string | number): Promise<SandboxWorker>;
  /** Stops listening and frees the port; an in-memory database is gone. Safe to call more than once. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts a sandbox in this process (or a child, with `process: true`); resolves once it answers, seeded. */
export declare function startSandbox(options?: SandboxOptions): Promise<Sandbox>;

/** A handle on a sandbox another process started, from its `connection`: for a test worker's own game. */
export declare function connectSandbox(connection: SandboxConnection): SandboxRemote;
