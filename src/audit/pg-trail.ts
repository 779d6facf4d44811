/**
 * The team's trail: every trail line in one PostgreSQL table (issue 52), written ahead as the
 * local file is: append() resolves once the INSERT is committed. The schema is udcli's own,
 * created and migrated here (a version table, one migration a step), under an advisory lock so
 * that agents starting at once do not race. One connection a command (pg.Client, never a pool),
 * every wait bounded. Loaded only for a profile that names `audit_url`: `pg` stays out of every
 * other command's start-up.
 */
import type * as Pg from 'pg';
import { NetworkError, TrailUnreachableError, UsageError } from '../errors.js';
import { packageRequire } from '../package-paths.js';
import { printable } from '../printable.js';
import { redactUrl } from '../redact.js';
import { askSecret, canAsk, type PromptIO } from '../runtime/prompt.js';
import {
  isEntry,
  MAX_AUDIT_LINE,
  newRunId,
  operatorMatches,
  parseSince,
  trailLine,
  type AuditEntry,
  type AuditFilter,
} from './log.js';
import type { Trail } from './trail.js';

/** The table every line goes to, and the one that says which migrations it has had. */
export const TRAIL_TABLE = 'udcli_trail';
export const SCHEMA_TABLE = 'udcli_trail_schema';

/**
 * The migrations, in order: the schema's version is how many have run. Never edit one that has
 * shipped; add the next.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE ${TRAIL_TABLE} (
     seq bigserial PRIMARY KEY,
     id text NOT NULL UNIQUE,
     run text NOT NULL,
     time timestamptz NOT NULL,
     kind text NOT NULL,
     operator text NOT NULL,
     profile text NOT NULL,
     uid text NOT NULL,
     ticket text,
     line jsonb NOT NULL
   );
   CREATE INDEX ${TRAIL_TABLE}_run ON ${TRAIL_TABLE} (run);
   CREATE INDEX ${TRAIL_TABLE}_ticket ON ${TRAIL_TABLE} (ticket);
   CREATE INDEX ${TRAIL_TABLE}_uid ON ${TRAIL_TABLE} (lower(uid));
   CREATE INDEX ${TRAIL_TABLE}_operator ON ${TRAIL_TABLE} (lower(operator))`,
];

/** Any number; the same in every udcli, so two migrating at once take turns. */
const MIGRATION_LOCK = 5_252_052;

/** How long a connection may take; then the trail is unreachable and nothing is sent. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** How long one statement may take (a committed line, a page read, the migration). */
export const QUERY_TIMEOUT_MS = 15_000;
/** Lines read a round trip: a trail of any size is streamed, never held whole. */
const PAGE = 500;

/** Socket errors that say the database could not be reached at all. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ECONNRESET',
  'EPIPE',
]);

export interface PgTrailOptions {
  env: NodeJS.ProcessEnv;
  /** Where a password can be asked for (a terminal): otherwise it must come from the environment. */
  io?: PromptIO;
}

/** The connection settings of a stored `audit_url` (checked by config/keys.ts: no password in it). */
function clientConfig(url: string, env: NodeJS.ProcessEnv, password: () => Promise<string>): Pg.ClientConfig {
  const u = new URL(url);
  const user = decodeURIComponent(u.username) || env.PGUSER || env.USER || 'postgres';
  const sslmode = u.searchParams.get('sslmode');
  // Every part given: pg would otherwise fill a missing one from process.env or ~/.pgpass.
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port === '' ? 5432 : Number(u.port),
    user,
    database: decodeURIComponent(u.pathname.replace(/^\//, '')) || user,
    password,
    ssl: sslmode === null || sslmode === 'disable' ? false : { rejectUnauthorized: sslmode !== 'require' },
    application_name: u.searchParams.get('application_name') ?? 'udcli',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    statement_timeout: QUERY_TIMEOUT_MS,
    keepAlive: true,
  };
}

/** An error's text as one printable line of bounded length (a server's message is not ours). */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return printable(text.replace(/\s+/g, ' ').trim().slice(0, 300));
}

function unreachable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e && typeof e.code === 'string' && UNREACHABLE.has(e.code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  // pg's own words for a connect timeout and for a server that went away.
  return /timeout expired|Connection terminated|connection timeout/i.test(message);
}

/** The one line for a trail that cannot be written: exit 5 when it cannot be reached, else 2. */
function trailError(where: string, error: unknown, doing: string): Error {
  if (error instanceof UsageError || error instanceof NetworkError) return error;
  if (unreachable(error)) {
    return new TrailUnreachableError(
      `cannot reach the team trail ${where} (${oneLine(error)}): no change is sent without its trail line; nothing was changed`,
      'unreachable',
      false,
    );
  }
  return new UsageError(`cannot ${doing} the team trail ${where}: ${oneLine(error)}; nothing was changed`);
}

/** The password when the server asks for one: the environment's, else the terminal's. */
function passwordSource(where: string, env: NodeJS.ProcessEnv, io: PromptIO | undefined): () => Promise<string> {
  let asked: string | undefined;
  return async () => {
    const fromEnv = env.PGPASSWORD || env.UDCLI_AUDIT_PASSWORD;
    if (fromEnv) return fromEnv;
    if (asked !== undefined) return asked;
    if (io === undefined || !canAsk(io)) {
      throw new UsageError(
        `the team trail ${where} asks for a password: set PGPASSWORD or UDCLI_AUDIT_PASSWORD (no terminal to ask on); nothing was changed`,
      );
    }
    const answer = await askSecret(io, `Password for the team trail ${where}: `);
    if (answer === null || answer === '')
      throw new UsageError('no password given for the team trail: nothing was changed');
    asked = answer;
    return answer;
  };
}

/** The `pg` package, loaded on first use. */
function loadPg(): typeof Pg {
  return packageRequire('pg') as typeof Pg;
}

export class PgTrail implements Trail {
  readonly run: string;
  readonly where: string;
  private client: Pg.Client | null;
  /** What broke the connection since it was opened, if anything (pg reports it as an event). */
  private broken: unknown = null;
  private seq = 0;

  private constructor(client: Pg.Client, where: string) {
    this.client = client;
    this.where = where;
    this.run = newRunId();
    client.on('error', (error) => {
      this.broken = error;
    });
  }

  /** Connects, brings the schema up to date, and returns the open trail; one line when it cannot. */
  static async open(url: string, options: PgTrailOptions): Promise<PgTrail> {
    const where = redactUrl(url);
    const pg = loadPg();
    const client = new pg.Client(clientConfig(url, options.env, passwordSource(where, options.env, options.io)));
    // Until the trail owns it: an error event with no listener would end the process.
    const early = (): void => undefined;
    client.on('error', early);
    try {
      await client.connect();
      await migrate(client);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw trailError(where, error, 'open');
    }
    const trail = new PgTrail(client, where);
    client.removeListener('error', early);
    return trail;
  }

  /** Inserts the line; resolves with its id once the INSERT is committed (no transaction: each commits). */
  async append(entry: AuditEntry): Promise<string> {
    const client = this.live();
    const id = `${this.run}.${++this.seq}`;
    const line = trailLine(entry, this.run, id);
    try {
      await client.query(
        `INSERT INTO ${TRAIL_TABLE} (id, run, time, kind, operator, profile, uid, ticket, line)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
        [
          id,
          this.run,
          line.time,
          line.kind ?? 'change',
          line.operator,
          line.profile,
          line.uid,
          line.ticket ?? null,
          JSON.stringify(line),
        ],
      );
    } catch (error) {
      throw trailError(this.where, this.broken ?? error, 'write to');
    }
    return id;
  }

  read(filter: AuditFilter = {}): AsyncGenerator<AuditEntry> {
    return this.readPages(filter);
  }

  private async *readPages(filter: AuditFilter): AsyncGenerator<AuditEntry> {
    const client = this.live();
    const since = typeof filter.since === 'string' ? parseSince(filter.since, filter.now) : filter.since;
    const where: string[] = ['seq > $1'];
    const params: unknown[] = [0, MAX_AUDIT_LINE];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (filter.run !== undefined) add((p) => `run = ${p}`, filter.run);
    if (filter.ticket !== undefined) add((p) => `ticket = ${p}`, filter.ticket);
    if (filter.user !== undefined) add((p) => `lower(uid) = lower(${p})`, filter.user);
    if (filter.profile !== undefined) add((p) => `profile = ${p}`, filter.profile);
    if (since !== undefined) add((p) => `time >= ${p}`, since.toISOString());
    // Narrowed here; operatorMatches below decides (a name or an address answers too).
    if (filter.operator !== undefined)
      add((p) => `position(${p} in lower(operator)) > 0`, filter.operator.trim().toLowerCase());
    const sql = `SELECT seq, CASE WHEN octet_length(line::text) <= $2 THEN line::text END AS line
                 FROM ${TRAIL_TABLE} WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ${PAGE}`;
    for (;;) {
      let rows: Array<{ seq: string; line: string | null }>;
      try {
        rows = (await client.query<{ seq: string; line: string | null }>(sql, params)).rows;
      } catch (error) {
        throw trailError(this.where, this.broken ?? error, 'read');
      }
      for (const row of rows) {
        let e: unknown = null;
        try {
          e = row.line === null ? null : JSON.parse(row.line);
        } catch {
          e = null;
        }
        // A row written by hand, or cut: skipped, and named by its seq.
        if (!isEntry(e)) {
          filter.onCorrupt?.(Number(row.seq));
          continue;
        }
        if (filter.operator !== undefined && !operatorMatches(String(e.operator), filter.operator)) continue;
        yield e;
      }
      if (rows.length < PAGE) return;
      params[0] = rows.at(-1)!.seq;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client !== null) await client.end().catch(() => undefined);
  }

  private live(): Pg.Client {
    if (this.client === null) throw new Error('team trail is closed');
    return this.client;
  }
}

/** Brings the schema to the newest version this udcli knows; refuses a newer one than it knows. */
async function migrate(client: Pg.Client): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${SCHEMA_TABLE} (version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number }>(
      `SELECT coalesce(max(version), 0)::integer AS version FROM ${SCHEMA_TABLE}`,
    );
    const version = rows[0]!.version;
    if (version > MIGRATIONS.length) {
      throw new UsageError(
        `the team trail's schema is version ${version}, newer than this udcli knows (${MIGRATIONS.length}): update udcli; nothing was changed`,
      );
    }
    for (let v = version + 1; v <= MIGRATIONS.length; v++) {
      await client.query(MIGRATIONS[v - 1]!);
      await client.query(`INSERT INTO ${SCHEMA_TABLE} (version) VALUES ($1)`, [v]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
