/**
 * `POST /_sandbox/reset`: puts the running sandbox's database back to what it holds by record
 * (what it was started with, or what the last reset gave it), or to `seed=demo|none`, or to a
 * data file sent as `data=TEXT` with `file=NAME` (its name for the record and for messages; the
 * sandbox never reads a path a request names). One transaction on the serving connection: the
 * reply goes out after the commit, so the next request of any client sees the new state.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxDatabase } from '../database.js';
import type { DataFile } from '../data/model.js';
import { DataFileError, parseDataText } from '../data/read.js';
import { replaceContents } from '../contents.js';
import { registerAdminRoute } from '../http/admin.js';
import { ApiFailure } from '../http/failure.js';
import { formBodyLimits, parseQuery, Query, splitTarget } from '../http/query.js';
import { BODY_LIMIT_BYTES } from '../http/request-parameters.js';
import { dataOrigin, originJson, recordedOrigin, sha256Of, type SandboxOrigin } from '../origin.js';

export const RESET_PATH = '/reset';
const MAX_FILE_NAME = 1024;

/** What a data origin was loaded from, kept so a bare reset can load it again without reading a file. */
export interface LoadedData {
  origin: SandboxOrigin;
  data?: DataFile;
}

function fields(request: FastifyRequest): Query {
  const query = parseQuery(splitTarget(request.url).query);
  const body = typeof request.body === 'string' && request.body !== '' ? parseQuery(request.body, formBodyLimits(BODY_LIMIT_BYTES)) : null;
  return body ? new Query([...query.pairs, ...body.pairs]) : query;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

function targetOf(given: Query, db: SandboxDatabase, last: LoadedData): LoadedData {
  const seed = given.get('seed');
  const text = given.get('data');
  if (seed !== undefined && text !== undefined) throw new ApiFailure(400, 'invalid parameter: give seed or data, not both');
  if (seed !== undefined) {
    if (seed !== 'demo' && seed !== 'none') throw new ApiFailure(400, 'invalid parameter: seed (expected demo or none)');
    return { origin: { kind: seed } };
  }
  if (text !== undefined) {
    const file = given.get('file') ?? 'the data file';
    if (file.length > MAX_FILE_NAME || CONTROL.test(file)) throw new ApiFailure(400, `invalid parameter: file (a name of at most ${MAX_FILE_NAME} printable characters)`);
    const format = given.get('format') ?? (/\.json$/i.test(file) ? 'json' : 'yaml');
    if (format !== 'yaml' && format !== 'json') throw new ApiFailure(400, 'invalid parameter: format (expected yaml or json)');
    let data: DataFile;
    try {
      data = parseDataText(file, text.replace(/^\uFEFF/, ''), format === 'json');
    } catch (error) {
      throw new ApiFailure(400, `invalid parameter: data: ${(error as Error).message}`);
    }
    return { origin: dataOrigin(file, sha256Of(text), data), data };
  }
  const recorded = recordedOrigin(db) ?? last.origin;
  if (recorded.kind !== 'data') return { origin: recorded };
  const same = last.origin.kind === 'data' && last.data !== undefined && last.origin.file === recorded.file && last.origin.sha256 === recorded.sha256;
  if (!same) {
    throw new ApiFailure(409, `conflict: this sandbox holds ${recorded.file} but did not load it itself; send its contents (data=..., file=...) or seed=demo|none`);
  }
  return last;
}

export function registerResetRoute(app: FastifyInstance, db: SandboxDatabase, startedWith: LoadedData): void {
  let last = startedWith;
  registerAdminRoute(app, {
    method: 'POST',
    path: RESET_PATH,
    handler: (request) => {
      const target = targetOf(fields(request), db, last);
      try {
        replaceContents(db, target.origin, target.data);
      } catch (error) {
        // A data file that fits alone but not the schema's own rules (e.g. saves per game): nothing changed.
        if (error instanceof DataFileError) throw new ApiFailure(400, `invalid parameter: data: ${(error as Error).message}`);
        throw error;
      }
      if (target.origin.kind === 'data') last = target;
      return { reset: true, origin: originJson(target.origin), games: db.repos.games.list().map((g) => g.id), users: countUsers(db) };
    },
  });
}

function countUsers(db: SandboxDatabase): number {
  return db.sqlite.prepare<[], { n: number }>('SELECT count(*) AS n FROM users').get()?.n ?? 0;
}
