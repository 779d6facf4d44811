/**
 * Issue 52, point 3: the team's trail in PostgreSQL. Two agents (two config dirs, two operators)
 * with a production profile whose `audit_url` names one real PostgreSQL (test/pg.ts, one server
 * for the file, password auth); the shared sandbox stands in for production, and "nothing sent"
 * is read from its own request log.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { postgresMissing, startPg, type TestPg } from '../pg.js';
import { generatedUsername } from '../../src/sandbox/seed/demo.js';
import { until } from '../until.js';
import {
  addProfile,
  heldUnits,
  BIN,
  commandEnv,
  json,
  lastRequestId,
  loggedSince,
  type CliResult,
  type TestEnv,
} from './harness.js';

const PASSWORD = 'team-trail-secret-52';
const pgMissing = postgresMissing();

interface Agent {
  name: string;
  configDir: string;
  run(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
}

/** What stderr says besides the production banner. */
const errorLines = (r: CliResult) => r.stderr.split('\n').filter((l) => l !== '' && !l.startsWith('⚠ PRODUCTION'));

type Row = {
  seq: string;
  id: string;
  run: string;
  operator: string;
  ticket: string | null;
  kind: string;
  line: Record<string, unknown>;
};

describe.skipIf(pgMissing !== '')(`the team's trail in PostgreSQL${pgMissing && ` (skipped: ${pgMissing})`}`, () => {
  let env: TestEnv;
  let pg: TestPg;
  const scratch = mkdtempSync(join(tmpdir(), 'udcli-e2e-team-trail-'));
  const agents: Agent[] = [];

  /** An agent of its own config dir, `$USER` named, the database's password in the environment. */
  function agent(name: string): Agent {
    const configDir = join(scratch, name);
    return {
      name,
      configDir,
      run: (args, extra = {}) =>
        env.run(args, { env: { UDCLI_CONFIG_DIR: configDir, USER: name, PGPASSWORD: undefined, ...pg.env, ...extra } }),
    };
  }

  beforeAll(async ({ sandbox }) => {
    env = sandbox;
    pg = await startPg({ password: PASSWORD });
    for (const name of ['ana', 'bruno']) {
      const a = agent(name);
      await addProfile(a.run, 'prod', env.sandbox.url, '--from-sandbox', '--production', '--audit-url', pg.url);
      agents.push(a);
    }
  }, 120_000);
  afterAll(async () => {
    await pg?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  const rows = (ticket: string) =>
    pg.query<Row>('SELECT seq, id, run, operator, ticket, kind, line FROM udcli_trail WHERE ticket = $1 ORDER BY seq', [
      ticket,
    ]);
  const give = (a: Agent, user: string, ticket: string, extra: NodeJS.ProcessEnv = {}) =>
    a.run(
      [
        '--profile',
        'prod',
        'products',
        'give',
        user,
        'xp-boost',
        '--yes',
        '--reason',
        `for ${ticket}`,
        '--ticket',
        ticket,
      ],
      extra,
    );

  it("a change's line lands in the database with its operator, run and ticket; the local audit log gets none", async () => {
    const [ana] = agents;
    const r = await give(ana!, 'alice', 'SUP-5201');
    expect(r.code, r.stderr).toBe(0);
    // Written ahead: the intent first, then the change line that closes it, both in the database.
    const found = await rows('SUP-5201');
    expect(found.map((f) => f.kind)).toEqual(['intent', 'change']);
    const [intent, row] = found as [Row, Row];
    expect(row).toMatchObject({ operator: 'ana', ticket: 'SUP-5201', kind: 'change' });
    expect(row.run).toMatch(/^\d{8}T\d{4}-[0-9a-f]{6}$/);
    expect(intent.id).toBe(`${row.run}.1`);
    expect(row.id).toBe(`${row.run}.2`);
    expect(row.line).toMatchObject({ closes: intent.id });
    expect(row.line).toMatchObject({
      id: row.id,
      run: row.run,
      operator: 'ana',
      profile: 'prod',
      server: env.sandbox.url,
      uid: uidForUsername('alice'),
      username: 'alice',
      reason: 'for SUP-5201',
      ticket: 'SUP-5201',
    });
    expect(existsSync(join(ana!.configDir, 'audit.log'))).toBe(false);
    // The schema is udcli's own, at its version.
    expect(await pg.query('SELECT version FROM udcli_trail_schema ORDER BY version')).toEqual([{ version: 1 }]);
  });

  it('two agents on one database: audit --ticket shows both, with the operator of each', async () => {
    const [ana, bruno] = agents;
    expect((await give(ana!, 'alice', 'SUP-5202')).code).toBe(0);
    const b = await give(bruno!, 'bob', 'SUP-5202');
    expect(b.code, b.stderr).toBe(0);
    // A batch writes its lines there too.
    const users = join(scratch, 'batch.txt');
    writeFileSync(users, 'carol\ndave\n');
    const batch = await bruno!.run([
      '--profile',
      'prod',
      'products',
      'give',
      `@${users}`,
      'xp-boost',
      '--yes',
      '--ticket',
      'SUP-5202',
    ]);
    expect(batch.code, batch.stderr).toBe(0);

    const seen = await ana!.run(['audit', '--profile', 'prod', '--ticket', 'SUP-5202', '--history', '-o', 'json']);
    expect(seen.code, seen.stderr).toBe(0);
    const lines = json<Array<Record<string, unknown>>>(seen);
    expect(lines.filter((l) => l.kind === 'change').map((l) => [l.operator, l.username])).toEqual([
      ['ana', 'alice'],
      ['bruno', 'bob'],
      ['bruno', 'carol'],
      ['bruno', 'dave'],
    ]);
    // Each written ahead: as many intents, each closed by one of those lines.
    const intents = lines.filter((l) => l.kind === 'intent').map((l) => l.id);
    expect(intents).toHaveLength(4);
    expect(
      lines
        .filter((l) => l.kind === 'change')
        .map((l) => l.closes)
        .sort(),
    ).toEqual([...intents].sort());
    const table = await ana!.run(['audit', '--profile', 'prod', '--ticket', 'SUP-5202', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/OPERATOR/);
    expect(table.stdout).toMatch(/\bana\b[\s\S]*\bbruno\b/);
  });

  it("audit --operator: one agent's lines", async () => {
    const [ana, bruno] = agents;
    const r = await bruno!.run(['audit', '--profile', 'prod', '--operator', 'ana', '--history', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const lines = json<Array<Record<string, unknown>>>(r);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(new Set(lines.map((l) => l.operator))).toEqual(new Set(['ana']));
    const none = await ana!.run(['audit', '--profile', 'prod', '--operator', 'nobody-here', '-o', 'json']);
    expect(json(none)).toEqual([]);
  });

  it('with the database stopped: a production change exits 5 with one line naming it, the sandbox receives nothing; reads still work', async () => {
    const [ana] = agents;
    const users = join(scratch, 'stopped.txt');
    writeFileSync(users, 'alice\nbob\n');
    pg.stopServer();
    try {
      const before = await lastRequestId(env.sandbox.url);
      const one = await give(ana!, 'alice', 'SUP-5203');
      expect(one.code, one.stderr).toBe(5);
      const where = pg.url.replace('udcli@', '…@');
      // The production banner, then the one line of the refusal.
      expect(errorLines(one)).toEqual([
        `udcli: cannot reach the team trail ${where} (connect ECONNREFUSED 127.0.0.1:${pg.port}): no change is sent without its trail line; nothing was changed`,
      ]);
      const batch = await ana!.run(['--profile', 'prod', 'products', 'give', `@${users}`, 'xp-boost', '--yes']);
      expect(batch.code, batch.stderr).toBe(5);
      expect(batch.stderr).toContain(`cannot reach the team trail ${where}`);
      expect(await loggedSince(env.sandbox.url, before)).toEqual([]);
      const read = await ana!.run(['--profile', 'prod', 'user', 'alice', '-o', 'json']);
      expect(read.code, read.stderr).toBe(0);
      for (const r of [one, batch, read]) expect(r.stderr).not.toContain(PASSWORD);
    } finally {
      pg.startServer();
    }
  });

  it('the password comes from the environment: without one (and no terminal), one line and nothing sent', async () => {
    const [ana] = agents;
    const before = await lastRequestId(env.sandbox.url);
    const r = await give(ana!, 'alice', 'SUP-5204', { UDCLI_AUDIT_PASSWORD: undefined });
    expect(r.code, r.stderr).toBe(2);
    expect(errorLines(r)).toEqual([
      expect.stringMatching(
        /^udcli: the team trail postgres:\/\/…@127\.0\.0\.1:\d+\/postgres asks for a password: set PGPASSWORD or UDCLI_AUDIT_PASSWORD/,
      ),
    ]);
    expect(await loggedSince(env.sandbox.url, before)).toEqual([]);
    const viaPg = await give(ana!, 'alice', 'SUP-5204', { UDCLI_AUDIT_PASSWORD: undefined, PGPASSWORD: PASSWORD });
    expect(viaPg.code, viaPg.stderr).toBe(0);
    expect((await rows('SUP-5204')).map((f) => f.kind)).toEqual(['intent', 'change']);
  });

  it('a password in audit_url is refused by profile add and config set, and never stored', async () => {
    const [ana] = agents;
    const withPassword = pg.url.replace('udcli@', `udcli:${PASSWORD}@`);
    const added = await ana!.run([
      'profile',
      'add',
      'leaky',
      '--base-url',
      env.sandbox.url,
      '--audit-url',
      withPassword,
    ]);
    expect(added.code).toBe(2);
    expect(added.stderr).toBe(
      'udcli: --audit-url must not hold a password (it would be stored in the config file): give it in PGPASSWORD or UDCLI_AUDIT_PASSWORD, or at the prompt\n',
    );
    const set = await ana!.run(['config', 'set', '--profile', 'prod', 'audit_url', withPassword]);
    expect(set.code).toBe(2);
    expect(set.stderr).toMatch(/^udcli: audit_url must not hold a password/);
    const inQuery = await ana!.run([
      'config',
      'set',
      '--profile',
      'prod',
      'audit_url',
      `${pg.url}?password=${PASSWORD}`,
    ]);
    expect(inQuery.code).toBe(2);
    for (const r of [added, set, inQuery]) expect(r.stderr).not.toContain(PASSWORD);
    expect(readFileSync(join(ana!.configDir, 'config.json'), 'utf8')).not.toContain(PASSWORD);
    // The URL as shown: never with its user's credentials.
    const shown = await ana!.run(['profile', 'show', 'prod', '-o', 'json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(pg.url.replace('udcli@', '…@'));
  });

  it('three agents: one killed mid-batch, another sees its open changes and settles them; the trail and the players agree; undo by ticket restores them', async ({
    newSandbox,
  }) => {
    // Production stands in slow (every reply 250 ms late), so a batch has changes in flight to kill.
    const prod = await newSandbox({ faults: { spec: 'slow=1:250ms', seed: 52 } });
    const TICKET = 'SUP-5300';
    const players = Array.from({ length: 24 }, (_, i) => generatedUsername(401 + i));
    const uids = players.map((p) => uidForUsername(p));
    const list = join(scratch, 'team-players.txt');
    writeFileSync(list, `${players.join('\n')}\n`);
    const team = ['carla', 'dora', 'emil'].map((name) => {
      const a = agent(name);
      return {
        ...a,
        run: (args: string[], extra: NodeJS.ProcessEnv = {}) => a.run(args, { UDCLI_BASE_URL: undefined, ...extra }),
      };
    });
    for (const a of team) {
      await addProfile(a.run, 'team', prod.sandbox.url, '--from-sandbox', '--production', '--audit-url', pg.url);
    }
    const held = (): Map<string, number> => heldUnits(prod, 'xp-boost', uids);
    const start = held();
    /** Intents of the ticket no line closes yet (none before the batch's trail has made its table). */
    const openIntents = async (): Promise<number> => {
      const [table] = await pg.query<{ t: string | null }>("SELECT to_regclass('udcli_trail')::text AS t");
      if (table?.t == null) return 0;
      const rows = await pg.query<{ id: string }>(
        `SELECT i.id FROM udcli_trail i WHERE i.ticket = $1 AND i.kind = 'intent'
         AND NOT EXISTS (SELECT 1 FROM udcli_trail c WHERE c.line->>'closes' = i.id)`,
        [TICKET],
      );
      return rows.length;
    };

    // Agent 1 (carla) runs the batch as the built binary and is killed with SIGKILL while a change is in flight.
    const [carla, dora, emil] = team as [Agent, Agent, Agent];
    const child = spawn(
      process.execPath,
      [
        BIN,
        '--profile',
        'team',
        'products',
        'give',
        `@${list}`,
        'xp-boost',
        '--yes',
        '--ticket',
        TICKET,
        '--concurrency',
        '4',
      ],
      {
        env: commandEnv({
          ...prod.env,
          UDCLI_BASE_URL: undefined,
          UDCLI_CONFIG_DIR: carla.configDir,
          USER: 'carla',
          ...pg.env,
        }),
        stdio: 'ignore',
      },
    );
    const exited = new Promise((resolve) => child.once('close', resolve));
    await until(async () => (await openIntents()) > 0, 'a change of the batch in flight', { timeoutMs: 30_000 });
    child.kill('SIGKILL');
    await exited;

    // Agent 2 (dora) sees the open changes across agents, and settles them from the trail alone.
    const open = await dora.run(['audit', '--profile', 'team', '--unresolved', '--ticket', TICKET, '-o', 'json']);
    expect(open.code, open.stderr).toBe(0);
    const opened = json<Array<Record<string, unknown>>>(open);
    expect(opened.length).toBeGreaterThan(0);
    expect(new Set(opened.map((l) => l.operator))).toEqual(new Set(['carla']));
    const settled = await dora.run(['--profile', 'team', 'audit', 'resolve', '--ticket', TICKET, '-o', 'json']);
    expect(settled.code, settled.stderr).toBe(0);
    const still = await emil.run(['audit', '--profile', 'team', '--unresolved', '--ticket', TICKET, '-o', 'json']);
    expect(json(still)).toEqual([]);

    // Agent 3 (emil) finishes the list for the players the first run never reached.
    const trailLines = async () =>
      (
        await pg.query<{ line: Record<string, unknown> }>(
          'SELECT line FROM udcli_trail WHERE ticket = $1 ORDER BY seq',
          [TICKET],
        )
      ).map((r) => r.line);
    const appliedTo = (lines: Array<Record<string, unknown>>) =>
      new Set(
        lines
          .filter((l) => l.kind === 'change' || (l.kind === 'resolved' && l.outcome === 'applied'))
          .map((l) => String(l.uid)),
      );
    const done = appliedTo(await trailLines());
    const rest = join(scratch, 'team-rest.txt');
    writeFileSync(rest, `${players.filter((p) => !done.has(uidForUsername(p))).join('\n')}\n`);
    const finished = await emil.run([
      '--profile',
      'team',
      'products',
      'give',
      `@${rest}`,
      'xp-boost',
      '--yes',
      '--ticket',
      TICKET,
    ]);
    expect(finished.code, finished.stderr).toBe(0);

    // Every player holds exactly what the trail says: one xp-boost each, given once.
    const lines = await trailLines();
    const now = held();
    for (const uid of uids) {
      const given = lines.filter(
        (l) => l.uid === uid && (l.kind === 'change' || (l.kind === 'resolved' && l.outcome === 'applied')),
      ).length;
      expect({ uid, held: now.get(uid) }).toEqual({ uid, held: start.get(uid)! + given });
      expect(given).toBe(1);
    }
    // audit --ticket shows all three agents' lines.
    const seen = await carla.run(['audit', '--profile', 'team', '--ticket', TICKET, '--history', '-o', 'json']);
    expect(new Set(json<Array<Record<string, unknown>>>(seen).map((l) => l.operator))).toEqual(
      new Set(['carla', 'dora', 'emil']),
    );

    // audit undo --ticket: the inverse batch, run as printed (dry run first), restores every player.
    const out = mkdtempSync(join(scratch, 'undo-'));
    const undo = await dora.run(['--profile', 'team', 'audit', 'undo', '--ticket', TICKET, '--out', out, '-o', 'json']);
    expect(undo.code, undo.stderr).toBe(0);
    const plan = json<{ steps: Array<{ commands: Array<{ dry_run: string; run: string }> }> }>(undo);
    for (const step of plan.steps)
      for (const c of step.commands) {
        for (const line of [c.dry_run, `${c.run} --yes`]) {
          const words = line
            .split(' ')
            .slice(1)
            .map((w) => w.replace(/^'(.*)'$/, '$1'));
          const r = await dora.run(words);
          expect(r.code, `${line}\n${r.stderr}`).toBe(0);
        }
      }
    expect(held()).toEqual(start);
  }, 120_000);
});
