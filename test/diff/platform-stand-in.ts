/**
 * A production stand-in written for the diff tests (not the sandbox with a flag): a small HTTP
 * server that answers a few of the platform's endpoints the way docs/PLATFORM.md describes them, in
 * its own code, with its own dates, avatar host, sessions and ids, and with these differences
 * planted on purpose (PLANTED): every other reply is shaped as the sandbox shapes it, so a
 * diff of a recording through it must report exactly the planted ones.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agiSignature } from '../../src/domain/agi-signing.js';

export const STAND_IN = {
  apiKey: 'B84276AA-5397-4B89-A8BA-0F16FFB7566F',
  gameId: '5001',
  uid: 'c3323c76c063636c91d2e8cb8f4dfcaf',
  friendUid: '9b2c5a1de0f3c4b7a8e9d0c1b2a3f4e5',
  unknownUid: 'ffffffffffffffffffffffffffffffff',
  quest: 'TEN_WINS',
} as const;

/** The differences a diff must find (kind and path), by endpoint. */
export const PLANTED = [
  // an extra field, and 0/1 for a boolean
  { endpoint: 'GET users', kind: 'missing', at: 'payload.country' },
  { endpoint: 'GET users', kind: 'type', at: 'payload.premium' },
  // a numeric string (the list is read by `achievements list` and before the change by `inc`)
  { endpoint: 'GET achievements/user', kind: 'type', at: 'payload[].percent_complete' },
  // another status for an error: HTTP 200 with the error in the envelope
  { endpoint: 'GET users', kind: 'status', at: 'status' },
  // an XML reply where the sandbox answers JSON
  { endpoint: 'GET products/user', kind: 'format', at: '' },
  // another reply body
  { endpoint: 'GET friends', kind: 'value', at: 'message' },
] as const;

const DATE = '2019-06-01 09:30:00';
const avatar = (uid: string, size = 96) => `https://images.platform.example/avatars/${uid}.png?size=${size}`;

function envelope(res: ServerResponse, httpStatus: number, code: number, message: string, payload: unknown): void {
  const body = JSON.stringify({ version: 1, code, message, payload });
  res.writeHead(httpStatus, { 'content-type': 'application/json; charset=utf-8', 'access-control-allow-origin': '*' });
  res.end(body);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (text += d));
    req.on('end', () => resolve(text));
  });
}

export interface StandIn {
  url: string;
  /** Every request it was sent: method as sent, the `method` override, path. */
  requests: Array<{ method: string; override: string | null; path: string }>;
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const challenges = new Map<string, string>();
  const requests: StandIn['requests'] = [];
  const user = {
    uid: STAND_IN.uid,
    username: 'speedy',
    avatar: avatar(STAND_IN.uid),
    avatar_med: avatar(STAND_IN.uid, 100),
    avatar_lg: avatar(STAND_IN.uid, 200),
    gender: 'female',
    birthday: '0000-00-00',
    premium: 0, // PLANTED: 0/1 for a boolean
    created_on: '1559381400',
    // docs/SERVICE.md (Users): with a valid key the platform gives `email`.
    email: 'speedy@example.com',
    country: 'FI', // PLANTED: an extra field
  };
  const friend = {
    uid: STAND_IN.friendUid,
    username: 'pal',
    avatar: avatar(STAND_IN.friendUid),
    avatar_med: avatar(STAND_IN.friendUid, 100),
    avatar_lg: avatar(STAND_IN.friendUid, 200),
    gender: 'male',
    birthday: '1990-04-01',
    premium: true,
    created_on: '1400000000',
    // docs/PLATFORM.md (Users): a game server's test replies carry `email` on friend entries too.
    email: 'pal@example.com',
  };
  const questRecord = (): Record<string, unknown> => ({
    id: 77,
    uid: STAND_IN.uid,
    achievement_id: 901,
    parent_id: STAND_IN.gameId,
    current_value: 10,
    percent_complete: '100', // PLANTED: a numeric string
    state: 'Completed',
    started_date: DATE,
    completed_date: '2019-06-02 10:00:00',
    updated_date: '2019-06-02 10:00:00',
    developer_id: STAND_IN.quest,
    type: 'Game',
    name: 'Ten Wins',
    target_value: 10,
  });

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const body = await readBody(req);
      const q = url.searchParams;
      const path = url.pathname;
      requests.push({ method: req.method ?? '', override: q.get('method'), path });
      const method = req.method === 'POST' && q.get('method') ? q.get('method')!.toUpperCase() : req.method;
      const key = (k: string | null) => (k ?? '').toLowerCase().replaceAll('-', '');
      if (key(q.get('api_key')) !== key(STAND_IN.apiKey)) return envelope(res, 401, 401, 'invalid api_key', null);
      if (method === 'GET' && path === `/services/rest/v1/users/${STAND_IN.uid}.json`)
        return envelope(res, 200, 200, 'OK', user);
      if (method === 'GET' && path.startsWith('/services/rest/v1/users/')) {
        // PLANTED: another status for an error (HTTP 200, the error in the envelope)
        const uid = path.slice('/services/rest/v1/users/'.length, -'.json'.length);
        return envelope(res, 200, 404, `not found: user ${uid}`, null);
      }
      if (method === 'GET' && path === `/services/rest/v1/friends/${STAND_IN.uid}.json`)
        return envelope(res, 200, 200, 'Success', [friend]); // PLANTED: another body
      if (method === 'GET' && path === `/services/rest/v1/achievements/${STAND_IN.gameId}.json`) {
        return envelope(res, 200, 200, 'OK', [
          {
            id: 901,
            developer_id: STAND_IN.quest,
            parent_id: STAND_IN.gameId,
            type: 'Game',
            name: 'Ten Wins',
            description: 'Win ten races.',
            admin_description: '',
            icon: 'https://images.platform.example/quests/ten.png',
            start_value: 0,
            target_value: 10,
            score: 25,
            state: 'Active',
            completion_count: 1234,
            created_date: 1559381400,
            updated_date: 1559381400,
            tags: { '1': 'racing' },
          },
        ]);
      }
      if (method === 'GET' && path === `/services/rest/v1/achievements/user/${STAND_IN.uid}.json`) {
        const developerId = q.get('developer_id');
        return envelope(
          res,
          200,
          200,
          'OK',
          developerId === null || developerId === STAND_IN.quest ? [questRecord()] : [],
        );
      }
      if (method === 'PUT' && path === `/services/rest/v1/achievements/user/${STAND_IN.uid}.json`) {
        const session = q.get('session');
        const sig = q.get('sig');
        const key = session === null ? undefined : challenges.get(session);
        const query = [...q.entries()];
        if (!session || !sig || key === undefined || agiSignature({ session, key, path, query }) !== sig) {
          if (session) challenges.delete(session);
          const fresh = { session: randomBytes(16).toString('hex'), key: randomBytes(16).toString('hex') };
          challenges.set(fresh.session, fresh.key);
          return envelope(res, 401, 401, session ? 'bad signature' : 'signature required', fresh);
        }
        challenges.delete(session);
        return envelope(res, 200, 200, 'OK', {
          state: 'Completed',
          current_value: 10,
          percent_complete: 100,
          developer_id: STAND_IN.quest,
          score_awarded: 0,
          already_completed: true,
          completed_date: '2019-06-02 10:00:00',
        });
      }
      if (method === 'GET' && path === `/services/rest/v1/products/user/${STAND_IN.uid}.json`) {
        // PLANTED: XML where the sandbox answers JSON
        res.writeHead(200, { 'content-type': 'text/xml; charset=utf-8' });
        return res.end(
          '<?xml version="1.0"?><response><version>1</version><code>200</code><message>OK</message><payload/></response>',
        );
      }
      void body;
      return envelope(res, 404, 404, 'not found: the stand-in has no such endpoint', null);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
