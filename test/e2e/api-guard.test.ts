/**
 * Issue 51 point 5: `udcli api` judges a request by what a server may make of it, not by how it
 * is spelled. A dot segment, written out or percent-encoded, is refused before anything is sent
 * (a front end that resolves `service/%2e%2e/services/...` would take a "site" request to the
 * service unguarded); a request is a read only as a GET with no `method` field or one
 * `method=get`, so two `method` fields, an override on another verb and a site POST are guarded
 * under a production profile and audited. The shared sandbox stands in for production under a
 * profile marked production; "nothing sent" is read from the sandbox's own request log.
 */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { addProductionProfile, auditLog, lastRequestId, loggedSince, type TestEnv } from './harness.js';

const UID = DEMO.user.uid;
const PROD = ['--profile', 'prod'];
const REFUSED_OFF_TERMINAL = /^udcli: refusing to change production data without --yes off a terminal\n/;

let env: TestEnv;
beforeAll(async ({ sandbox }) => {
  env = sandbox;
  // No verb_override: a DELETE goes out as a DELETE, whatever `method` field it carries.
  await addProductionProfile(env, 'prod', ['--verb-override', 'false']);
});

function auditLines(): Array<Record<string, unknown>> {
  return auditLog(env.configDir);
}

/** Runs the command and returns it with what reached the sandbox and the audit lines it added. */
async function observed(args: string[]) {
  const since = await lastRequestId(env.sandbox.url);
  const lines = auditLines().length;
  const r = await env.run(args);
  return { ...r, sent: await loggedSince(env.sandbox.url, since), audited: auditLines().slice(lines) };
}

describe('dot segments are refused before anything is sent', () => {
  const quest = `services/rest/v1/achievements/user/${UID}.json`;
  const fields = ['-f', 'type=Game', '-f', `pid=${DEMO.game.id}`, '-f', 'developer_id=FIRST_WIN', '-f', 'increment=1'];
  const paths = [
    `service/%2e%2e/${quest}`,
    `service/%2E%2E/${quest}`,
    `service/.%2e/${quest}`,
    `service/%2e./${quest}`,
    `service/%252e%252e/${quest}`,
    `service%2f..%2f${quest}`,
    `service\\..\\${quest}`,
    `service/..;x/${quest}`,
    `users/%2e/${UID}.json`,
  ];

  for (const path of paths) {
    it(`api PUT ${path} under production: exit 2, one line, nothing sent, nothing audited`, async () => {
      const r = await observed([...PROD, 'api', 'PUT', path, ...fields, '--sign', '--yes']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(
        /^udcli: invalid path ".*": must not contain \. or \.\. segments, written out or percent-encoded; nothing was sent\n$/,
      );
      expect(r.sent).toEqual([]);
      expect(r.audited).toEqual([]);
    });
  }

  it('and as a read under any profile', async () => {
    const r = await observed(['api', 'GET', `service/%2e%2e/services/rest/v1/users/${UID}.json`]);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.sent).toEqual([]);
  });
});

describe('what is a change is judged by the verb a server may act on', () => {
  const user = `users/${UID}.json`;

  it('two method fields (get, then put) on a GET: guarded under production, nothing sent without --yes', async () => {
    const r = await observed([...PROD, 'api', 'GET', user, '-f', 'method=get', '-f', 'method=put']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`⚠ PRODUCTION profile "prod": GET /services/rest/v1/${user} (method=get, method=put)\n`);
    expect(r.stderr.split('\n').slice(1).join('\n')).toMatch(REFUSED_OFF_TERMINAL);
    expect(r.sent).toEqual([]);
    expect(r.audited).toEqual([]);
  });

  it('with --yes it is sent, written ahead; the sandbox refuses two method fields, so the trail says not applied', async () => {
    const r = await observed([...PROD, 'api', 'GET', user, '-f', 'method=get', '-f', 'method=put', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^udcli: invalid parameter: method \(given more than once\)$/m);
    expect(r.sent).toHaveLength(1);
    expect(r.audited.map((l) => l.kind)).toEqual(['intent', 'failed']);
    expect(r.audited[1]).toMatchObject({ closes: r.audited[0]!.id });
  });

  it('POST with method=get (a server may ignore the override) is a change: guarded, then sent and audited', async () => {
    const args = [...PROD, 'api', 'POST', user, '-f', 'method=get'];
    const refused = await observed(args);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to change production data without --yes/);
    expect(refused.sent).toEqual([]);

    const sent = await observed([...args, '--yes']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.sent.map((q) => q.method)).toEqual(['POST']);
    expect(sent.audited.map((l) => l.kind)).toEqual(['intent', 'change']);
    expect(sent.audited[1]).toMatchObject({
      closes: sent.audited[0]!.id,
      kind: 'change',
      profile: 'prod',
      uid: UID,
      subject: `api POST /services/rest/v1/${user}`,
      change: `POST /services/rest/v1/${user}: HTTP 200`,
    });
    expect(sent.audited[0]!.command).toMatch(/ -f method=get$/);
  });

  it('a second method field in the path itself counts the same', async () => {
    const r = await observed([...PROD, 'api', 'GET', `${user}?method=get`, '-f', 'Method=put']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to change production data/);
    expect(r.sent).toEqual([]);
  });

  it('DELETE with method=get (no verb_override: sent as a DELETE) is a change: guarded, nothing sent', async () => {
    const r = await observed([...PROD, 'api', 'DELETE', `achievements/user/${UID}.json`, '-f', 'method=get']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `⚠ PRODUCTION profile "prod": DELETE /services/rest/v1/achievements/user/${UID}.json (method=get)\n`,
    );
    expect(r.stderr).toMatch(/refusing to change production data without --yes/);
    expect(r.sent).toEqual([]);
  });

  it('a GET with method=put is guarded too', async () => {
    const r = await observed([...PROD, 'api', 'GET', user, '-f', 'method=put']);
    expect(r.code).toBe(2);
    expect(r.sent).toEqual([]);
  });

  it('a site POST (login) is a change like any other: guarded, then audited', async () => {
    const refused = await observed([...PROD, 'api', 'POST', 'login', '-f', `username=${DEMO.user.username}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refusing to change production data without --yes/);
    expect(refused.sent).toEqual([]);

    const sent = await observed([...PROD, 'api', 'POST', 'login', '-f', `username=${DEMO.user.username}`, '--yes']);
    expect(sent.sent.map((q) => q.method)).toEqual(['POST']);
    expect(sent.audited.map((l) => l.kind)).toEqual(['intent', 'change']);
    expect(sent.audited[1]).toMatchObject({ kind: 'change', profile: 'prod', subject: 'api POST /login' });
  });

  it('a GET with no method field, or one method=get, is still a read: no prompt, no audit line', async () => {
    for (const extra of [[], ['-f', 'method=get'], ['-f', 'method=GET']]) {
      const r = await observed([...PROD, 'api', 'GET', user, ...extra]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.sent).toHaveLength(1);
      expect(r.audited).toEqual([]);
    }
  });
});
