/**
 * `udcli sandbox start`'s options, checked before anything runs: a bad value is a UsageError
 * (exit 2) naming the option; a host other machines can reach needs --allow-remote.
 */
import { UsageError } from '../../../errors.js';
import { DEMO } from '../../../domain/demo.js';
import { jsonText } from '../../../printable.js';
import { redactUrl } from '../../../redact.js';
import {
  parseDbPath,
  parsePort,
  parseServerOptions,
  parseSandboxName,
  seedOrData,
  type RawServerOptions,
  type ServerOptions,
  type SeedMode,
} from './options.js';

export interface StartOptions extends ServerOptions {
  port: number;
  host: string;
  /** Absolute path or ':memory:'; undefined = the default database. */
  db: string | undefined;
  seed: SeedMode;
  /** Absolute path of a data file to start from, instead of the demo data. */
  data: string | undefined;
  /** --reset: replace what the database holds with the data file. */
  replace: boolean;
  detach: boolean;
  /** A host other than loopback, or a public URL, was asked for and allowed (--allow-remote or --yes). */
  remote: boolean;
  /** --public-url: the origin other machines reach the sandbox at (its Host is answered too). */
  publicUrl: string | undefined;
  /** --name: the sandbox's name on this machine (undefined: the default one, else `port-<port>`). */
  name?: string | undefined;
}

export interface RawStartOptions extends RawServerOptions {
  port?: string;
  host?: string;
  db?: string;
  seed?: string;
  data?: string;
  reset?: boolean;
  detach?: boolean;
  allowRemote?: boolean;
  publicUrl?: string;
  name?: string;
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  return (
    host === 'localhost' ||
    host === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    /^::ffff:127(\.\d{1,3}){3}$/i.test(host)
  );
}

export const REMOTE_EXPOSURE = 'password-less login, the token generator and unsigned grants';

/** What --host (or --public-url) exposes beyond this machine, as the warning a started sandbox prints. */
export function remoteWarning(host: string, publicUrl?: string): string {
  const what = isLoopbackHost(host) && publicUrl !== undefined ? `--public-url ${publicUrl}` : `--host ${host}`;
  return `warning: ${what} lets other machines reach the sandbox: ${REMOTE_EXPOSURE}`;
}

/** --public-url: an http(s) origin (a path of `/` at most), the way other machines reach the sandbox. */
export function parsePublicUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  const problem =
    url === undefined || !/^https?:$/.test(url.protocol)
      ? 'expected an http(s) URL, e.g. http://sandbox.example.com:8787'
      : url.username !== '' || url.password !== ''
        ? 'it must not carry a user name or password'
        : url.pathname !== '/' || url.search !== '' || url.hash !== ''
          ? 'give the origin only (scheme, host and port), no path or query'
          : null;
  if (problem !== null)
    throw new UsageError(
      `invalid --public-url ${jsonText(redactUrl(value.length > 80 ? `${value.slice(0, 77)}...` : value))}: ${problem}`,
    );
  return url!.origin;
}

export function parseHost(value: string): string {
  if (!/^[A-Za-z0-9.:[\]%-]{1,255}$/.test(value))
    throw new UsageError(`--host must be a host name or address, got "${value}"`);
  return value.replace(/^\[(.*)\]$/, '$1');
}

/** `start --reset` replaces the database's contents with the data file: it needs one, and a database that lasts. */
function startReplace(raw: RawStartOptions): boolean {
  if (raw.reset !== true) return false;
  if (raw.data === undefined)
    throw new UsageError('--reset needs --data FILE: it replaces what the database holds with the file', {
      hint: 'to start over with the demo data: udcli sandbox reset',
    });
  return true;
}

/**
 * Without --port, the sandbox listens where the built-in profile looks for it: UDCLI_SANDBOX_PORT
 * when set, else 8787.
 */
export function parseStartOptions(raw: RawStartOptions, env: NodeJS.ProcessEnv = {}, yes = false): StartOptions {
  const port = raw.port ?? env.UDCLI_SANDBOX_PORT;
  const host = raw.host === undefined ? DEMO.host : parseHost(raw.host);
  const publicUrl = raw.publicUrl === undefined ? undefined : parsePublicUrl(raw.publicUrl);
  const remote = !isLoopbackHost(host) || publicUrl !== undefined;
  if (remote && raw.allowRemote !== true && !yes) {
    const what = publicUrl === undefined ? `--host ${host}` : `--public-url ${publicUrl}`;
    throw new UsageError(`${what} would let other machines reach the sandbox: ${REMOTE_EXPOSURE}`, {
      hint: 'pass --allow-remote (or --yes) if that is what you want; 127.0.0.1 keeps it on this machine',
    });
  }
  return {
    port: port === undefined || port === '' ? DEMO.port : parsePort(port),
    host,
    remote,
    publicUrl,
    db: parseDbPath(raw.db),
    ...seedOrData(raw),
    replace: startReplace(raw),
    ...parseServerOptions(raw),
    detach: raw.detach === true,
    name: raw.name === undefined ? undefined : parseSandboxName(raw.name),
  };
}
