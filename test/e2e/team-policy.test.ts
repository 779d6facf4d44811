/**
 * Issue 52, points 4-6: who did it, the policy in a team's profile, plans approved by a second
 * operator, and SANDBOX where a change lands on the built-in sandbox beside a production profile.
 * A real sandbox plays production (profiles marked production); "nothing sent" is read from the
 * sandbox's own request log.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { addProductionProfile, auditLog, lastRequestId, loggedSince, type CliResult } from './harness.js';
import { fileScratch } from '../scratch.js';

const env = fileSandbox();
const scratch = fileScratch('udcli-e2e-team-policy-');
const ANA = 'Ana Lopes <ana@studio.test>';
const BEN = 'Ben Ode <ben@studio.test>';
const CAT = 'Cat Ruiz <cat@studio.test>';
const DEMO_KEY = DEMO.game.apiKey;
const uidOf = (username: string): string => uidForUsername(username);

/** A production-marked profile of the shared sandbox with these keys set through `config set`. */
async function teamProfile(name: string, keys: Record<string, string>): Promise<void> {
  await addProductionProfile(env, name);
  for (const [key, value] of Object.entries(keys)) {
    const set = await env.run(['--profile', name, 'config', 'set', key, value]);
    expect(set.code, set.stderr).toBe(0);
  }
}

function list(name: string, users: string[]): string {
  const path = join(scratch, name);
  writeFileSync(path, `${users.join('\n')}\n`);
  return path;
}

function auditLines(): Array<Record<string, unknown>> {
  return auditLog(env.configDir);
}

/** A command that must be refused: exit 2, `why` on the first line of stderr, no request at all reached the sandbox. */
async function refused(args: string[], why: RegExp, operator: string | null = ANA): Promise<CliResult> {
  const since = await lastRequestId(env.sandbox.url);
  const r = await env.run(args, { env: { UDCLI_OPERATOR: operator ?? undefined } });
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr.split('\n')[0]).toMatch(why);
  expect(r.stderr).not.toContain('PRODUCTION');
  expect(await loggedSince(env.sandbox.url, since)).toEqual([]);
  return r;
}

describe('who did it', () => {
  beforeAll(async () => {
    await teamProfile('named', { operator_required: 'true', operators: `${ANA}, ${BEN}` });
  });

  it('operator_required without an operator: exit 2, one line, nothing sent', async () => {
    await refused(
      ['--profile', 'named', 'products', 'give', 'alice', 'xp-boost', '--yes'],
      /^udcli: profile named requires a named operator: set UDCLI_OPERATOR=.*nothing was sent$/,
      null,
    );
  });

  it('an operator not on the list: exit 2, nothing sent, batch or not', async () => {
    await refused(
      ['--profile', 'named', 'products', 'give', 'alice', 'xp-boost', '--yes'],
      /operator "Mallory <m@evil.test>" is not on the operators list of profile named; nothing was sent/,
      'Mallory <m@evil.test>',
    );
    const users = list('named2.txt', ['alice', 'bob']);
    await refused(
      ['--profile', 'named', 'products', 'give', `@${users}`, 'xp-boost', '--yes'],
      /is not on the operators list/,
      'Mallory <m@evil.test>',
    );
  });

  it('a listed operator goes ahead, and is on the trail line (by address, any spelling)', async () => {
    const r = await env.run(['--profile', 'named', 'products', 'give', 'alice', 'xp-boost', '--yes'], {
      env: { UDCLI_OPERATOR: 'ANA@studio.test' },
    });
    expect(r.code, r.stderr).toBe(0);
    const last = auditLines().at(-1)!;
    expect(last).toMatchObject({ profile: 'named', operator: 'ANA@studio.test', uid: expect.any(String) });
  });
});

describe('the policy of a profile', () => {
  beforeAll(async () => {
    await teamProfile('bounded', {
      products_allowed: 'xp-*, gems',
      max_quantity: '5',
      max_players: '3',
      ticket_pattern: 'SUP-\\d+',
    });
  });
  const ok = ['--ticket', 'SUP-12', '--yes'];

  it('a product not allowed: exit 2, nothing sent', async () => {
    await refused(
      ['--profile', 'bounded', 'products', 'give', 'alice', 'sword-of-dawn', ...ok],
      /^udcli: policy of profile bounded: product "sword-of-dawn" is not allowed; nothing was sent$/,
    );
  });

  it('a quantity over max_quantity: exit 2, nothing sent', async () => {
    await refused(
      ['--profile', 'bounded', 'products', 'give', 'alice', 'xp-boost', '--qty', '6', ...ok],
      /--qty 6 is over max_quantity 5; nothing was sent/,
    );
  });

  it('a list over max_players: exit 2, nothing sent', async () => {
    const users = list('four.txt', ['alice', 'bob', 'carol', 'dave']);
    await refused(
      ['--profile', 'bounded', 'products', 'give', `@${users}`, 'xp-boost', ...ok],
      /4 players is over max_players 3; nothing was sent/,
    );
  });

  it('a ticket not matching ticket_pattern, or none: exit 2, nothing sent', async () => {
    await refused(
      ['--profile', 'bounded', 'products', 'give', 'alice', 'xp-boost', '--ticket', 'XSUP-12x', '--yes'],
      /--ticket "XSUP-12x" does not match SUP-\\d\+; nothing was sent/,
    );
    await refused(
      ['--profile', 'bounded', 'products', 'give', 'alice', 'xp-boost', '--yes'],
      /a --ticket matching SUP-\\d\+ is required; nothing was sent/,
    );
  });

  it('a raw api change cannot pass around the bounds: exit 2, nothing sent', async () => {
    const quest = `services/rest/v1/achievements/user/${uidOf('alice')}.json`;
    const fields = ['-f', 'type=Game', '-f', 'pid=1001', '-f', 'developer_id=FIRST_WIN', '-f', 'increment=1'];
    await refused(
      ['--profile', 'bounded', 'api', 'PUT', quest, ...fields, '--sign', ...ok],
      /^udcli: policy of profile bounded: a raw api change cannot be checked against products_allowed, max_quantity; nothing was sent$/,
    );
  });

  it('within every bound, the change is made (a base sku matches the pack)', async () => {
    const r = await env.run(['--profile', 'bounded', 'products', 'give', 'alice', 'xp-boost', '--qty', '5', ...ok]);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('plans and approvals', () => {
  beforeAll(async () => {
    await teamProfile('approved', { approval_over: '2' });
  });
  const three = list('three.txt', ['alice', 'bob', 'carol']);
  const give = (plan?: string, users = three) => [
    '--profile',
    'approved',
    'products',
    'give',
    `@${users}`,
    'xp-boost',
    '--ticket',
    'SUP-2000',
    '--reason',
    'event',
    '--yes',
    ...(plan ? ['--plan', plan] : []),
  ];

  it('over the approval line without a plan: exit 2, nothing sent', async () => {
    await refused(give(), /3 players is over approval_over 2: the run needs a plan approved by another operator/);
  });

  it('a plan is written (reads only), approved by another operator, and then runs', async () => {
    const plan = join(scratch, 'plan.json');
    const since = await lastRequestId(env.sandbox.url);
    const written = await env.run(give(plan), { env: { UDCLI_OPERATOR: ANA } });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stderr).toContain('nothing was sent');
    expect(written.stderr).toMatch(/Next: another operator approves it with: udcli --profile approved approve /);
    expect((await loggedSince(env.sandbox.url, since)).filter((q) => q.method !== 'GET')).toEqual([]);
    const p = JSON.parse(readFileSync(plan, 'utf8')) as Record<string, unknown>;
    expect(p).toMatchObject({
      udcli_plan: 1,
      operator: ANA,
      target: { server: env.sandbox.url, profile: 'approved', game: '1001' },
      change: { command: 'products give' },
      ticket: 'SUP-2000',
      hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    expect((p.players as Array<{ user: string; after: string }>).map((x) => x.user)).toEqual(['alice', 'bob', 'carol']);

    // Not yet approved; then approved by its own author: still refused.
    await refused(give(plan), /has no approval in the trail; nothing was sent/);
    const self = await env.run(['--profile', 'approved', 'approve', plan], { env: { UDCLI_OPERATOR: ANA } });
    expect(self.code).toBe(2);
    expect(self.stderr).toMatch(/wrote plan .*: its approval is another operator's; nothing was recorded/);

    // Approved by Ben: Ben may not run it himself (he approved it)...
    const approved = await env.run(['--profile', 'approved', 'approve', plan], { env: { UDCLI_OPERATOR: BEN } });
    expect(approved.code, approved.stderr).toBe(0);
    expect(auditLines().at(-1)).toMatchObject({ kind: 'approval', operator: BEN, plan: p.hash, ticket: 'SUP-2000' });
    await refused(give(plan), /approved only by Ben Ode <ben@studio.test>, who cannot approve a run of their own/, BEN);
    // `udcli audit` says what the line is: an approval, not a change.
    const audit = await env.run(['audit', '--ticket', 'SUP-2000', '-o', 'table']);
    expect(audit.stdout.split('\n').find((l) => l.includes('Ben Ode'))).toMatch(/\bapproval\b/);

    // ...Ana (or Cat) may.
    const run = await env.run(give(plan), { env: { UDCLI_OPERATOR: CAT } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/batch: 3 items: 3 ok/);
    // Each written ahead by the one running it, and made.
    const made = auditLines().filter((l) => l.operator === CAT && l.ticket === 'SUP-2000');
    expect(made.map((l) => [l.kind, l.username]).sort()).toEqual(
      ['alice', 'bob', 'carol']
        .flatMap((u) => [
          ['change', u],
          ['intent', u],
        ])
        .sort(),
    );
  });

  it('a list whose players differ from the plan, or an edited plan: exit 2, nothing sent', async () => {
    const plan = join(scratch, 'plan2.json');
    expect((await env.run(give(plan), { env: { UDCLI_OPERATOR: ANA } })).code).toBe(0);
    expect((await env.run(['--profile', 'approved', 'approve', plan], { env: { UDCLI_OPERATOR: BEN } })).code).toBe(0);
    const other = list('other.txt', ['alice', 'bob', 'mallory']);
    await refused(
      give(plan, other),
      /the players of this run are not the plan .*'s: 1 not in the plan \(mallory\), 1 of the plan missing/,
    );
    const edited = JSON.parse(readFileSync(plan, 'utf8')) as { players: Array<{ user: string }> };
    edited.players[2]!.user = 'mallory';
    writeFileSync(plan, JSON.stringify(edited));
    await refused(give(plan), /was changed after it was written \(its hash does not match\)/);
  });
});

describe('SANDBOX where a change lands beside a production profile', () => {
  it('the built-in sandbox with a production profile stored: SANDBOX before and after the change', async () => {
    await teamProfile('live', {});
    const port = new URL(env.sandbox.url).port;
    // The built-in profile as a user gets it: no UDCLI_BASE_URL, the sandbox on its port.
    const r = await env.run(['products', 'give', 'alice', 'xp-boost'], {
      env: { UDCLI_BASE_URL: undefined, UDCLI_SITE_URL: undefined, UDCLI_SANDBOX_PORT: port },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^SANDBOX: give 1 unit of xp-boost .*user alice on the built-in sandbox \(http:\/\/127\.0\.0\.1:\d+\), not on production \(.*--profile live.*\)$/m,
    );
    expect(r.stderr).toMatch(/^SANDBOX: made on the built-in sandbox .*; production was not changed$/m);
  });
});

describe("a team's profiles from one file", () => {
  const team = (extra = ''): string => {
    const path = join(scratch, 'team.yaml');
    writeFileSync(
      path,
      [
        'profiles:',
        '  prod:',
        `    base_url: ${env.sandbox.url}`,
        '    game_id: "1001"',
        '    production: true',
        '    default: true',
        '    operator_required: true',
        `    operators: ["${ANA}", "${BEN}"]`,
        '    max_players: 10',
        "    ticket_pattern: 'SUP-\\d+'",
        extra,
        '  staging:',
        `    base_url: ${env.sandbox.url}`,
        '',
      ].join('\n'),
    );
    return path;
  };
  const trail = (configDir: string) => auditLog(configDir);

  it('import installs them with their policy and default; show names the import, env and default as sources', async ({
    dirs,
  }) => {
    const file = team();
    const imported = await dirs.run(['profile', 'import', file], { env: { UDCLI_OPERATOR: ANA } });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('Imported 2 profiles from');
    expect(imported.stderr).toContain('prod is the default');

    const shown = await dirs.run(['profile', 'show', '--json'], { env: { UDCLI_API_KEY: DEMO_KEY } });
    expect(shown.code, shown.stderr).toBe(0);
    const view = JSON.parse(shown.stdout) as Record<string, unknown> & { sources: Record<string, string> };
    expect(view).toMatchObject({ name: 'prod', active: true, max_players: 10, operator_required: true });
    expect(view.sources).toMatchObject({
      base_url: `import ${file}`,
      max_players: `import ${file}`,
      ticket_pattern: `import ${file}`,
      api_key: 'env UDCLI_API_KEY',
      signing_scheme: 'default',
    });

    // A policy changed here is no longer the team file's, and is itself a trail line.
    const set = await dirs.run(['config', 'set', 'max_players', '20'], { env: { UDCLI_OPERATOR: ANA } });
    expect(set.code, set.stderr).toBe(0);
    const again = JSON.parse((await dirs.run(['profile', 'show', '--json'])).stdout) as {
      sources: Record<string, string>;
    };
    expect(again.sources.max_players).toBe('profile');
    const policy = trail(dirs.configDir).filter((l) => l.kind === 'policy');
    expect(policy.at(0)).toMatchObject({
      profile: 'prod',
      operator: ANA,
      after: { max_players: 10, production: true },
    });
    expect(policy.at(-1)).toMatchObject({
      profile: 'prod',
      operator: ANA,
      before: { max_players: 10 },
      after: { max_players: 20 },
      change: 'policy of profile prod: max_players 10 → 20',
    });
  });

  it('a team file holding a secret is refused whole: exit 2, the key named, nothing installed', async ({ dirs }) => {
    for (const secret of [`    api_key: ${DEMO_KEY}`, '    auth_token: abc', '    signing_secret: s3cret']) {
      const r = await dirs.run(['profile', 'import', team(secret)]);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(
        /profile prod holds (api_key|auth_token|signing_secret), a secret; .*nothing was installed$/,
      );
      expect(r.stderr).not.toContain(DEMO_KEY);
      expect(r.stderr).not.toContain('s3cret');
      expect(existsSync(join(dirs.configDir, 'config.json'))).toBe(false);
    }
  });

  it('with the production profile the default, a change to the built-in sandbox says SANDBOX', async ({ dirs }) => {
    expect((await dirs.run(['profile', 'import', team()])).code).toBe(0);
    const r = await dirs.run(['--profile', 'sandbox', 'products', 'give', 'bob', 'xp-boost'], {
      env: { UDCLI_SANDBOX_PORT: new URL(env.sandbox.url).port },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /^SANDBOX: give 1 unit of xp-boost .*on the built-in sandbox .*not on production \(--profile prod\)$/m,
    );
    expect(r.stderr).toMatch(/^SANDBOX: made on the built-in sandbox/m);
  });
});
