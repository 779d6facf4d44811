/**
 * The scratch sandbox a diff replays against: a database of its own in a temporary directory
 * (never the user's), loaded with `--data` and then the recording's state, and the sandbox's app
 * listening on a free loopback port for this run only: replies come through the whole pipeline
 * and a real HTTP exchange, as any client's would.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type * as Undici from 'undici';
import { buildApp } from '../app.js';
import { openDatabase, type SandboxDatabase } from '../database.js';
import type { DataFile } from '../data/model.js';
import { loadData } from '../data/load.js';
import { dynamicImport } from '../../dynamic-import.js';
import { dataOrigin, recordOrigin, sha256Of } from '../origin.js';
import type { Reply } from './compare.js';

/** The origin the scratch sandbox names in its replies (avatars): a name that is nobody's. */
export const SCRATCH_ORIGIN = 'http://scratch-sandbox.invalid';
const TOKEN_TTL_SECONDS = 24 * 3600;

export interface ScratchRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Scratch {
  send(request: ScratchRequest): Promise<Reply>;
  /**
   * A valid auth token of `uid` for `gameId` (recorded tokens mean nothing here); of a user it does not hold, one it
   * refuses.
   */
  token(uid: string, gameId: string): string;
  close(): Promise<void>;
}

export async function openScratch(layers: ReadonlyArray<{ data: DataFile; label: string }>): Promise<Scratch> {
  const dir = mkdtempSync(join(tmpdir(), 'udcli-diff-'));
  let db: SandboxDatabase | undefined;
  let app: FastifyInstance | undefined;
  try {
    db = openDatabase(join(dir, 'scratch.db'));
    const now = Math.floor(Date.now() / 1000);
    for (const layer of layers) {
      loadData(db, layer.data, now, layer.label);
      recordOrigin(db, dataOrigin(layer.label, sha256Of(JSON.stringify(layer.data)), layer.data));
    }
    app = buildApp({ db, log: () => undefined, publicOrigin: SCRATCH_ORIGIN, tokenTtlSeconds: TOKEN_TTL_SECONDS });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await app?.close().catch(() => undefined);
    db?.close();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const tokens = new Map<string, string>();
  const database = db;
  const server = app;
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  // undici's request (not fetch): no WHATWG streams per reply, a long replay allocates less.
  const undici = await dynamicImport<typeof Undici>('undici');
  const agent = new undici.Agent({ connections: 1 });
  return {
    async send(request) {
      const reply = await undici.request(base + request.url, {
        method: request.method as 'GET',
        headers: request.headers,
        dispatcher: agent,
        ...(request.body !== undefined ? { body: request.body } : {}),
      });
      const type = reply.headers['content-type'];
      return {
        status: reply.statusCode,
        mimeType: Array.isArray(type) ? type.join(', ') : (type ?? ''),
        text: await reply.body.text(),
      };
    },
    token(uid, gameId) {
      const id = `${uid}\u0000${gameId}`;
      let token = tokens.get(id);
      if (!token) {
        token = randomBytes(16).toString('hex');
        // A user the recording never showed (its replies' bodies left out): no token of theirs
        // can be stored (the database refuses it), and the sandbox answers the request as the
        // platform answers an unknown user's, whatever token it carries.
        if (!database.repos.users.findByUid(uid)) return token;
        const now = Math.floor(Date.now() / 1000);
        database.repos.auth.createToken(
          { token, uid, gameId, createdOn: now, expiresOn: now + TOKEN_TTL_SECONDS },
          now - TOKEN_TTL_SECONDS,
        );
        tokens.set(id, token);
      }
      return token;
    },
    async close() {
      try {
        await agent.close();
        await server.close();
      } finally {
        database.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
