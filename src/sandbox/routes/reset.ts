/**
 * `POST /_sandbox/reset`: puts the running sandbox's database back to what it was started with
 * (the demo data, its data file as read at start, nothing), or to `seed=demo|none`, or to a
 * data file sent as `data=TEXT` with `file=NAME` (its name for the record and for messages; the
 * sandbox never reads a path a request names). One transaction on the serving connection: the
 * reply goes out after the commit, so the next request of any client sees the new state.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxDatabase } from '../database.js';
import type { DataFile } from '../data/model.js';
import { DataFileError } from '../data/data-file-error.js';
import { replaceContents } from '../contents.js';
import { registerAdminRoute } from '../http/admin.js';
import { ApiFailure } from '../http/failure.js';
import { formBodyLimits, parseQuery, Query, splitTarget } from '../http/query.js';
import { BODY_LIMIT_BYTES } from '../http/request-parameters.js';
import { dataOrigin, originJson, sha256Of, type SandboxOrigin } from '../origin.js';
import { hasControl } from '../../printable.js';
import type { ResetReply } from '../../domain/sandbox-admin-replies.js';

export const RESET_PATH = '/reset';
const MAX_FILE_NAME = 1024;

/** What the sandbox was started with; a data file's checked contents kept, so a bare reset reads no file. */
export interface LoadedData {
  origin: SandboxOrigin;
  data?: DataFile;
}

function fields(request: FastifyRequest): Query {
  const query = parseQuery(splitTarget(request.url).query);
  const body =
    typeof request.body === 'string' && request.body !== ''
      ? parseQuery(request.body, formBodyLimits(BODY_LIMIT_BYTES))
      : null;
  return body ? new Query([...query.pairs, ...body.pairs]) : query;
}

async function targetOf(given: Query, startedWith: LoadedData): Promise<LoadedData> {
  const seed = given.get('seed');
  const text = given.get('data');
  if (seed !== undefined && text !== undefined)
    throw new ApiFailure(400, 'invalid parameter: give seed or data, not both');
  if (seed !== undefined) {
    if (seed !== 'demo' && seed !== 'none')
      throw new ApiFailure(400, 'invalid parameter: seed (expected demo or none)');
    return { origin: { kind: seed } };
  }
  if (text !== undefined) {
    const file = given.get('file') ?? 'the data file';
    if (file.length > MAX_FILE_NAME || hasControl(file))
      throw new ApiFailure(400, `invalid parameter: file (a name of at most ${MAX_FILE_NAME} printable characters)`);
    const format = given.get('format') ?? (/\.json$/i.test(file) ? 'json' : 'yaml');
    if (format !== 'yaml' && format !== 'json')
      throw new ApiFailure(400, 'invalid parameter: format (expected yaml or json)');
    let data: DataFile;
    try {
      // Bounded before it is parsed, and parsed off the server's thread (data/read.ts).
      // The reader (and its YAML parser) loaded on the first reset that sends a file, not at every start.
      const { parseDataTextOffThread } = await import('../data/read.js');
      data = await parseDataTextOffThread(file, text.replace(/^\uFEFF/, ''), format === 'json');
    } catch (error) {
      if (!(error instanceof DataFileError)) throw error;
      throw new ApiFailure(400, `invalid parameter: data: ${error.message}`);
    }
    return { origin: dataOrigin(file, sha256Of(text), data), data };
  }
  // Bare: what the sandbox was started with, whatever a reset with fields gave it since.
  if (startedWith.origin.kind === 'data' && startedWith.data === undefined) {
    throw new ApiFailure(
      409,
      `conflict: this sandbox holds ${startedWith.origin.file} but did not load it itself; send its contents (data=..., file=...) or seed=demo|none`,
    );
  }
  return startedWith;
}

export function registerResetRoute(app: FastifyInstance, db: SandboxDatabase, startedWith: LoadedData): void {
  registerAdminRoute(app, {
    method: 'POST',
    path: RESET_PATH,
    handler: async (request): Promise<ResetReply> => {
      const target = await targetOf(fields(request), startedWith);
      try {
        replaceContents(db, target.origin, target.data);
      } catch (error) {
        // A data file that fits alone but not the schema's own rules (e.g. saves per game): nothing changed.
        if (error instanceof DataFileError)
          throw new ApiFailure(400, `invalid parameter: data: ${(error as Error).message}`);
        throw error;
      }
      return {
        reset: true,
        origin: originJson(target.origin),
        games: db.repos.games.list().map((g) => g.id),
        users: countUsers(db),
      };
    },
  });
}

function countUsers(db: SandboxDatabase): number {
  return db.repos.users.count();
}
