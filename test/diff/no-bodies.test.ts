/**
 * Recordings whose replies lack bodies (browsers and their sanitized exports may leave them
 * out): `sandbox diff` compares the entries that have them and lists the others with why;
 * `sandbox import` writes what the bodies it has show and says what it could not; a recording
 * with no body at all is bad input. No internal error (a database constraint) reaches the user.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { readDataFile } from '../../src/sandbox/data/read.js';
import type { TestEnv } from '../e2e/harness.js';

interface Entry {
  request: { method: string; url: string };
  response: { status: number; content: { text?: string; size: number } };
}
interface Har {
  log: { entries: Entry[] };
}

let env: TestEnv;
const dir = mkdtempSync(join(tmpdir(), 'diff-no-bodies-'));
let recorded: Har;
const uid = DEMO.user.uid;
beforeAll(async ({ sandbox }) => {
  env = sandbox;
  const file = join(dir, 'udcli.har');
  for (const args of [
    ['user', uid],
    ['friends', uid, '--limit', '5'],
    ['achievements', 'list', uid],
    ['products', 'give', uid, 'dragon-mount'],
    ['saves', 'set', uid, 'slot2', '{"hp":40}', '--yes'],
    ['saves', 'get', uid, 'slot2'],
  ]) {
    const r = await env.read(['--har', file, ...args]);
    expect(r.code, r.stderr).toBe(0);
  }
  recorded = JSON.parse(readFileSync(file, 'utf8')) as Har;
});

const platform = (e: Entry): boolean => e.request.url.includes('/services/rest/v1/');
const at = (e: Entry): string => `${e.request.method} ${new URL(e.request.url).pathname}`;

/** The recording with the bodies of the entries `drop` picks left out, as a browser leaves them. */
function withoutBodies(name: string, drop: (e: Entry, i: number) => boolean): { file: string; dropped: number[] } {
  const har = structuredClone(recorded);
  const dropped: number[] = [];
  har.log.entries.forEach((e, i) => {
    if (!drop(e, i)) return;
    delete e.response.content.text;
    if (platform(e)) dropped.push(i);
  });
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(har));
  return { file, dropped };
}

describe('a recording whose replies lack bodies', () => {
  it('diff compares the entries that have them and lists the others with the reason', async () => {
    // The friends read and every change's reply lose their bodies.
    const { file, dropped } = withoutBodies(
      'some.har',
      (e) => platform(e) && (at(e).startsWith('GET /services/rest/v1/friends/') || e.request.method === 'POST'),
    );
    expect(dropped.length).toBeGreaterThan(2);
    const diff = await env.read(['sandbox', 'diff', file, '--json']);
    expect(diff.stderr).not.toMatch(/constraint|sqlite/i);
    const report = JSON.parse(diff.stdout) as {
      compared: number;
      differences: unknown[];
      skipped: number;
      skips: Array<{ entry: number; reason: string }>;
    };
    expect(report.differences).toEqual([]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(report.compared).toBeGreaterThan(2);
    const noBody = report.skips.filter((s) => /body was not recorded/.test(s.reason));
    expect(noBody.map((s) => s.entry).sort((a, b) => a - b)).toEqual(dropped);
    // A read is not compared; a change is still replayed, so the save read after it compares clean.
    const friendsRead = recorded.log.entries.findIndex((e) => at(e).startsWith('GET /services/rest/v1/friends/'));
    expect(report.skips.find((s) => s.entry === friendsRead)!.reason).toMatch(/nothing to compare/);
    expect(noBody.some((s) => /change was replayed/.test(s.reason))).toBe(true);

    const text = await env.read(['sandbox', 'diff', file]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/skipped (\d+ )?#\d+.*: the reply's body was not recorded/);
  });

  it('a recording with only a definitions reply whole: no database error, changes of unseen players refused as the sandbox refuses them', async () => {
    const { file } = withoutBodies(
      'defs-only.har',
      (e) => platform(e) && !/\/achievements\/\d+\.json$/.test(new URL(e.request.url).pathname),
    );
    const diff = await env.read(['sandbox', 'diff', file, '--json']);
    expect(diff.stderr).not.toMatch(/constraint|sqlite|cannot read it/i);
    expect([0, 1]).toContain(diff.code);
    const report = JSON.parse(diff.stdout) as { compared: number };
    expect(report.compared).toBeGreaterThan(0);
  });

  it('import writes what the bodies show and names the replies it could not read', async () => {
    const { file, dropped } = withoutBodies(
      'import.har',
      (e) => platform(e) && at(e).startsWith('GET /services/rest/v1/friends/'),
    );
    const out = join(dir, 'case.yaml');
    const r = await env.read(['sandbox', 'import', file, out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/wrote .*case\.yaml: 1 game \(1001\), 1 user; start it with/);
    expect(r.stderr).toContain(
      `not in it: what ${dropped.length === 1 ? '1 platform reply' : `${dropped.length} platform replies`} showed, their bodies not recorded (entries ${dropped.map((i) => `#${i}`).join(', ')})`,
    );
    const data = readDataFile(out);
    const user = data.users!.find((u) => u.uid === uid)!;
    expect(user.saves?.[DEMO.game.id]?.slot2).toBe('{"hp":40}');
    // The friends list was the one reply that showed friends.
    expect(user.friends).toBeUndefined();
  });

  it('no body at all: one line, exit 2, nothing written, for diff and import alike', async () => {
    const { file } = withoutBodies('none.har', () => true);
    const diff = await env.read(['sandbox', 'diff', file]);
    expect(diff.code).toBe(2);
    expect(diff.stderr.trim().split('\n')).toHaveLength(1);
    expect(diff.stderr).toMatch(/none of its \d+ platform replies has its body recorded/);
    expect(diff.stdout).toBe('');
    const out = join(dir, 'never.yaml');
    const imported = await env.read(['sandbox', 'import', file, out]);
    expect(imported.code).toBe(2);
    expect(imported.stderr).toMatch(/none of its \d+ platform replies has its body recorded/);
    expect(existsSync(out)).toBe(false);
  });
});
