/**
 * The Factory of a real run: process streams, the parsed global options, settings from the
 * config file and environment, one API client, one Output. Everything heavy (the client and
 * undici, output libraries, the embedded sandbox) and everything `--version` and `--help` do
 * not need (the config modules, node:net) is imported on first use.
 */
import type * as Net from 'node:net';
import { isatty } from 'node:tty';
import type { ApiClient } from '../client/types.js';
import type { Settings } from '../config/types.js';
import type { Output } from '../output/types.js';
import type { Factory, GlobalOptions, IOStreams } from '../ops/factory.js';
import { printable } from '../printable.js';
import { dynamicImport } from '../dynamic-import.js';
import { UsageError } from '../errors.js';
import type { RecordedExchange } from '../har/entry.js';
import type { HarRecorder } from '../har/writer.js';
import { parseGlobals } from './global-options.js';
import { packageVersion } from '../package-paths.js';

/** How long the embedded-sandbox fallback waits for something to answer on the sandbox port. */
export const SANDBOX_PROBE_MS = 300;

export function processIO(): IOStreams {
  // Node builds each of process.stdin/stdout/stderr on first touch (a stream over a TTY, pipe or
  // file, ~1-3 ms each): touch them only when written or read, and ask isatty() of the fd instead.
  return {
    get stdin() {
      return process.stdin;
    },
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    stdinIsTTY: isatty(0),
    stdoutIsTTY: isatty(1),
    stderrIsTTY: isatty(2),
    env: process.env,
    onSignals(signals, listener) {
      for (const signal of signals) process.on(signal, listener);
      return () => {
        for (const signal of signals) process.off(signal, listener);
      };
    },
  };
}

/** True when something accepts a TCP connection at host:port within `timeoutMs`. */
export async function probeTcp(host: string, port: number, timeoutMs: number): Promise<boolean> {
  // Imported here: only the built-in sandbox profile probes, and node:net costs start-up time.
  const { connect } = await dynamicImport<typeof Net>('node:net');
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}

function hostAndPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port };
}

interface EmbeddedSandbox {
  url: string;
  close(): Promise<void>;
}

export class DefaultFactory implements Factory {
  readonly io: IOStreams;
  #globals: GlobalOptions | undefined;
  #settings: Promise<Settings> | undefined;
  #resolved: Settings | undefined;
  #client: Promise<ApiClient> | undefined;
  #output: Promise<Output> | undefined;
  #embedded: EmbeddedSandbox | undefined;
  #baseUrl: string | undefined;
  #recorder: HarRecorder | undefined;
  #commandGame: string | undefined;

  constructor(io: IOStreams) {
    this.io = io;
  }

  /** Set by the program once the command line is parsed and validated. */
  setGlobals(globals: GlobalOptions, commandGame?: string): void {
    // Asked to keep what would only be kept in a recording, with none made: say so rather than ignore it.
    if (globals.harKeepPersonal && globals.har === undefined && !this.io.env.UDCLI_HAR) {
      throw new UsageError('--har-keep-personal goes with --har FILE (or UDCLI_HAR): nothing is recorded without one');
    }
    this.#globals = globals;
    this.#commandGame = commandGame;
  }

  globals(): GlobalOptions {
    return (this.#globals ??= parseGlobals({}));
  }

  settings(): Promise<Settings> {
    this.#settings ??= (async () => {
      const g = this.globals();
      const flags = {
        ...(g.profile ? { profile: g.profile } : {}),
        ...(g.baseUrl ? { baseUrl: g.baseUrl } : {}),
        ...(g.apiKey ? { apiKey: g.apiKey } : {}),
      };
      // The config modules load with the first command that needs settings, not for --version or --help.
      const { loadSettings, BUILT_IN_PROFILE } = await import('../config/index.js');
      const settings = loadSettings(flags, this.io.env);
      if (
        settings.builtInSandbox ||
        (settings.profile === BUILT_IN_PROFILE && settings.sources.api_key === 'default')
      ) {
        const { followSandbox } = await import('./sandbox-profile.js');
        const note = await followSandbox(settings, this.io.env, this.#commandGame);
        if (note !== undefined && !this.globals().quiet) this.io.stderr.write(note);
      }
      this.#resolved = settings;
      return this.#resolved;
    })();
    return this.#settings;
  }

  /** The base URL requests go to (the embedded sandbox's once started), for error hints. */
  effectiveBaseUrl(): string | undefined {
    return this.#baseUrl ?? this.#resolved?.baseUrl;
  }

  client(options: { connections?: number; record?: (exchange: RecordedExchange) => void } = {}): Promise<ApiClient> {
    this.#client ??= this.#createClient(options);
    return this.#client;
  }

  async #createClient(options: {
    connections?: number;
    record?: (exchange: RecordedExchange) => void;
  }): Promise<ApiClient> {
    const settings = await this.settings();
    const g = this.globals();
    let baseUrl = settings.baseUrl;
    let siteUrl = settings.siteUrl;
    if (settings.builtInSandbox) {
      const embedded = await this.#embeddedSandboxIfNeeded(baseUrl);
      if (embedded) {
        baseUrl = embedded.url;
        if (settings.sources.site_url === 'default') siteUrl = embedded.url;
      }
    }
    this.#baseUrl = baseUrl;
    const harFile = g.har ?? (this.io.env.UDCLI_HAR || undefined);
    const [{ createClient }, { createSigner }, recording] = await Promise.all([
      import('../client/client.js'),
      import('../client/signer.js'),
      harFile === undefined ? undefined : import('../har/writer.js'),
    ]);
    // Opened before the client exists: a file there that is not a HAR stops the run before anything is sent.
    const recorder = (this.#recorder = recording?.openHarRecorder(harFile!, {
      creator: { name: 'udcli', version: packageVersion() },
      secrets: [settings.apiKey, settings.signingSecret, settings.cookie],
      keepPersonal: g.harKeepPersonal === true,
    }));
    return createClient({
      baseUrl,
      siteUrl,
      apiKey: settings.apiKey,
      signer: createSigner(settings.signingScheme, settings.signingSecret),
      verbOverride: settings.verbOverride,
      timeoutMs: g.timeoutMs,
      retries: g.retries,
      ...(options.connections ? { connections: options.connections } : {}),
      ...(recorder || options.record
        ? {
            record: (exchange: RecordedExchange) => {
              recorder?.record(exchange);
              options.record?.(exchange);
            },
          }
        : {}),
      // A trace line holds what the server sent (a reason phrase, a failure): the one rule applies.
      // (process.stderr is built at its first touch: not for a command that writes nothing there.)
      ...(g.verbose ? { trace: (line: string) => void this.io.stderr.write(`${printable(line)}\n`) } : {}),
    });
  }

  /**
   * When nothing answers at the built-in profile's URL: starts a sandbox there in the background
   * (as `sandbox start --detach` would), left running for the next commands; `sandbox status`
   * shows it and `sandbox stop` stops it. Only if that fails, an embedded one in this process,
   * on a throw-away port, for this command alone.
   */
  async #embeddedSandboxIfNeeded(url: string): Promise<EmbeddedSandbox | undefined> {
    const { host, port } = hostAndPort(url);
    if (await probeTcp(host, port, SANDBOX_PROBE_MS)) return undefined;
    if (await this.#backgroundSandbox(host, port)) return undefined;
    // Another command may have started one meanwhile (two first commands at once).
    if (await probeTcp(host, port, SANDBOX_PROBE_MS)) return undefined;
    const [{ startSandbox }, { defaultDatabasePath }] = await Promise.all([
      import('../sandbox/server.js'),
      import('../sandbox/paths.js'),
    ]);
    const dbPath = defaultDatabasePath(this.io.env);
    // Avatar URLs name the profile's URL, not the throw-away port: they work once a sandbox runs there.
    this.#embedded = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      dbPath,
      seed: 'demo',
      publicOrigin: new URL(url).origin,
    });
    if (!this.globals().quiet) {
      this.io.stderr.write(`udcli: no sandbox on ${host}:${port}; using an embedded one (data: ${dbPath})\n`);
    }
    return this.#embedded;
  }

  /**
   * Why a background sandbox rather than an embedded one each time (issue 34): loading the
   * sandbox (Fastify, better-sqlite3) and opening its database costs a command 1.7-3× the time of
   * the request itself, on every command; started once, it costs the next commands nothing.
   * False when it could not be started (the reason is for `udcli sandbox start` to tell).
   */
  async #backgroundSandbox(host: string, port: number): Promise<boolean> {
    const env = this.io.env;
    try {
      const [
        { launchDetached },
        { parseStartOptions },
        { dataDir, defaultDatabasePath },
        { commandFor },
        { forbiddenDirProblem },
        { configDir },
      ] = await Promise.all([
        import('./commands/sandbox/start.js'),
        import('./commands/sandbox/start-options.js'),
        import('../sandbox/paths.js'),
        import('./commands/sandbox/pidfile.js'),
        import('../sandbox/game-host/allowed-dirs.js'),
        import('../config/paths.js'),
      ]);
      const options = parseStartOptions({ detach: true, port: String(port), host }, env);
      // The folder the quick start runs in may serve games later (`sandbox play --game-dir dist`),
      // unless no game may ever be served from it (a home folder, udcli's own): issue 53.
      const cwd = process.cwd();
      if (forbiddenDirProblem(cwd, { own: [configDir(env), dataDir(env)] }) === null) options.allowGameDirs.push(cwd);
      const started = await launchDetached(this, options);
      if (!this.globals().quiet) {
        this.io.stderr.write(
          `udcli: no sandbox on ${host}:${port}; started one in the background (pid ${started.pid}, data: ${defaultDatabasePath(env)}); ` +
            `it serves the next commands too; stop it with: ${commandFor(env, 'stop', started)}\n`,
        );
      }
      return true;
    } catch {
      return false;
    }
  }

  /**
   * A reply that is no service envelope, from the built-in profile's own URL (no base_url was
   * ever set): when no sandbox answers there, another program holds the sandbox's port (8787 is
   * also other tools' default), and "check base_url" would send the user after a setting they
   * never made. Any other error is returned as it is.
   */
  async explain(error: unknown): Promise<unknown> {
    const settings = this.#resolved;
    if (settings?.builtInSandbox !== true || this.#embedded !== undefined) return error;
    const { ApiError, MalformedReplyError, UdcliError } = await import('../errors.js');
    if (!(error instanceof MalformedReplyError) && !(error instanceof ApiError && error.withoutEnvelope)) return error;
    const url = this.#baseUrl ?? settings.baseUrl;
    const { probe } = await import('./commands/sandbox/pidfile.js');
    if ((await probe(url)) !== null) return error;
    const { host, port } = hostAndPort(url);
    return new UdcliError(
      `${host}:${port} answers, but not as a sandbox: another program holds it (${error.message})`,
      {
        hint: `run the sandbox on another port: UDCLI_SANDBOX_PORT=N (the built-in profile and \`udcli sandbox start\` both follow it), or stop the program on port ${port}`,
        cause: error,
      },
    );
  }

  output(): Promise<Output> {
    this.#output ??= import('../output/output.js').then(({ createOutput }) =>
      createOutput({ io: this.io, globals: this.globals() }),
    );
    return this.#output;
  }

  async dispose(): Promise<void> {
    const client = this.#client;
    const embedded = this.#embedded;
    this.#recorder?.flush();
    this.#client = undefined;
    this.#embedded = undefined;
    try {
      if (client)
        await client.then(
          (c) => c.close(),
          () => undefined,
        );
    } finally {
      if (embedded) await embedded.close();
    }
  }
}
