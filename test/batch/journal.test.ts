import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BatchItem } from '../../src/batch/input.js';
import { Journal } from '../../src/batch/journal.js';
import { formatSummary, runBatch, type BatchResult, type BatchSummary } from '../../src/batch/runner.js';
import { NetworkError, UsageError } from '../../src/errors.js';
import { until } from '../until.js';
import { fileScratch } from '../scratch.js';

const root = fileScratch('udcli-journal-');
let seq = 0;
const fresh = () => join(root, `j${++seq}.ndjson`);

const HEX = (i: number) => i.toString(16).padStart(32, '0');
const items = (inputs: string[]): BatchItem[] => inputs.map((input, i) => ({ line: i + 1, input }));
const CMD = { operation: 'achievements reset', args: ['FIRST_WIN'] };

async function run(opts: {
  journal: string;
  inputs: string[];
  op: (uid: string) => Promise<unknown>;
  idempotent?: boolean;
  retryUnknown?: boolean;
  dryRun?: boolean;
  command?: typeof CMD;
}): Promise<{ summary: BatchSummary; results: Map<string, BatchResult<unknown>>; list: BatchResult<unknown>[] }> {
  const list: BatchResult<unknown>[] = [];
  const summary = await runBatch({
    items: items(opts.inputs),
    resolve: async (input) => (input.length === 32 ? input : HEX(input.length)),
    operation: opts.op,
    idempotent: opts.idempotent ?? true,
    retryUnknown: opts.retryUnknown ?? false,
    dryRun: opts.dryRun ?? false,
    describe: (uid) => `would reset ${uid}`,
    journal: { path: opts.journal, command: opts.command ?? CMD },
    onResult: (r) => void list.push(r),
  });
  return { summary, list, results: new Map(list.map((r) => [`${r.input}`, r])) };
}

const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('journal', () => {
  it('records a header and one line per finished item; a rerun skips the ok ones and retries the failed ones', async () => {
    const path = fresh();
    const calls: string[] = [];
    const first = await run({
      journal: path,
      inputs: [HEX(1), HEX(2), HEX(3)],
      op: async (uid) => {
        calls.push(uid);
        if (uid === HEX(2)) throw new Error('server said no');
      },
    });
    expect(first.summary).toMatchObject({ ok: 2, failed: 1 });
    const written = lines(path);
    expect(written[0]).toMatchObject({ udcli_journal: 3, operation: 'achievements reset', args: ['FIRST_WIN'] });
    expect(
      written
        .slice(1)
        .map((l) => [l.input, l.status])
        .sort(),
    ).toEqual([
      [HEX(1), 'ok'],
      [HEX(2), 'failed'],
      [HEX(3), 'ok'],
    ]);
    expect(typeof written[1]!.at).toBe('string');

    calls.length = 0;
    const second = await run({
      journal: path,
      inputs: [HEX(1), HEX(2), HEX(3), HEX(4)],
      op: async (uid) => void calls.push(uid),
    });
    expect(calls.sort()).toEqual([HEX(2), HEX(4)]);
    expect(second.results.get(HEX(1))).toMatchObject({ status: 'skipped', uid: HEX(1) });
    expect(second.summary).toMatchObject({ total: 4, ok: 2, skipped: 2, failed: 0 });
  });

  it('reports unknown items again without sending them; --retry-unknown sends them', async () => {
    const path = fresh();
    await run({
      journal: path,
      inputs: [HEX(1), HEX(2)],
      idempotent: false,
      op: async (uid) => {
        if (uid === HEX(1)) throw new NetworkError('timeout', 'timeout', true);
      },
    });
    const calls: string[] = [];
    const again = await run({
      journal: path,
      inputs: [HEX(1), HEX(2)],
      idempotent: false,
      op: async (uid) => void calls.push(uid),
    });
    expect(calls).toEqual([]);
    expect(again.results.get(HEX(1))).toMatchObject({
      status: 'unknown',
      uid: HEX(1),
      error: { message: expect.stringMatching(/--retry-unknown/) },
    });
    expect(again.summary).toMatchObject({ unknown: 1, skipped: 1 });

    const retried = await run({
      journal: path,
      inputs: [HEX(1), HEX(2)],
      idempotent: false,
      retryUnknown: true,
      op: async (uid) => void calls.push(uid),
    });
    expect(calls).toEqual([HEX(1)]);
    expect(retried.summary).toMatchObject({ ok: 1, skipped: 1, unknown: 0 });
  });

  it('writes `started` before sending a non-idempotent item, so one killed in flight is unknown on resume', async () => {
    const path = fresh();
    // What a process killed mid-item leaves behind: the header and a `started` record.
    await run({ journal: path, inputs: [], idempotent: false, op: async () => undefined });
    appendFileSync(
      path,
      `${JSON.stringify({ line: 1, input: 'alice', uid: HEX(5), status: 'started', at: new Date().toISOString() })}\n`,
    );
    const calls: string[] = [];
    const mutation = await run({
      journal: path,
      inputs: ['alice'],
      idempotent: false,
      op: async (uid) => void calls.push(uid),
    });
    expect(calls).toEqual([]);
    expect(mutation.results.get('alice')).toMatchObject({ status: 'unknown', uid: HEX(5) });

    // the same record under an idempotent command is simply done again
    const idemPath = fresh();
    await run({ journal: idemPath, inputs: [], op: async () => undefined });
    appendFileSync(
      idemPath,
      `${JSON.stringify({ line: 1, input: 'alice', uid: HEX(5), status: 'started', at: 'x' })}\n`,
    );
    const idem = await run({ journal: idemPath, inputs: ['alice'], op: async (uid) => void calls.push(uid) });
    expect(calls).toEqual([HEX(5)]);
    expect(idem.summary.ok).toBe(1);
  });

  it('refuses a journal written by another command, or a file that is not a journal', async () => {
    const path = fresh();
    await run({ journal: path, inputs: [HEX(1)], op: async () => undefined });
    const other = run({
      journal: path,
      inputs: [HEX(1)],
      command: { operation: 'achievements reset', args: ['OTHER_ACH'] },
      op: async () => undefined,
    });
    await expect(other).rejects.toThrow(UsageError);
    await expect(Journal.open(path, { operation: 'products take', args: ['sword'] })).rejects.toThrow(
      /udcli achievements reset FIRST_WIN/,
    );

    const notJournal = fresh();
    writeFileSync(notJournal, 'alice\nbob\n');
    await expect(run({ journal: notJournal, inputs: [HEX(1)], op: async () => undefined })).rejects.toThrow(
      /not a udcli journal/,
    );
    expect(readFileSync(notJournal, 'utf8')).toBe('alice\nbob\n');
  });

  it('tolerates a record torn by a crash, and cuts it off before appending', async () => {
    const path = fresh();
    await run({ journal: path, inputs: [HEX(1)], op: async () => undefined });
    appendFileSync(path, '{"line":2,"input":"' + HEX(2) + '","uid":"' + HEX(2) + '","sta');
    const calls: string[] = [];
    const r = await run({ journal: path, inputs: [HEX(1), HEX(2)], op: async (uid) => void calls.push(uid) });
    expect(calls).toEqual([HEX(2)]);
    expect(r.summary).toMatchObject({ ok: 1, skipped: 1 });
    const all = lines(path); // every line parses again
    expect(all.slice(1).map((l) => l.status)).toEqual(['ok', 'ok']);
  });

  it('never cuts off the last line of a journal another run holds: the second opener is refused, naming the holder', async () => {
    const path = fresh();
    const holder = await Journal.open(path, CMD);
    try {
      // The holder is mid-write: its last record has no newline yet.
      appendFileSync(path, '{"input":"' + HEX(9) + '","uid":"' + HEX(9) + '","sta');
      const before = readFileSync(path, 'utf8');
      const refused = Journal.open(path, CMD);
      await expect(refused).rejects.toThrow(UsageError);
      await expect(Journal.open(path, CMD)).rejects.toThrow(
        `journal ${path} is in use by another udcli run (pid ${process.pid}`,
      );
      expect(readFileSync(path, 'utf8')).toBe(before);
      // --dry-run only reads: it may look at a journal in use.
      await expect(Journal.open(path, CMD, { readOnly: true })).resolves.toBeInstanceOf(Journal);
    } finally {
      await holder.close();
    }
    expect(existsSync(`${path}.lock`)).toBe(false);
    const next = await Journal.open(path, CMD);
    await next.close();
  });

  it('takes over a lock left by a dead process on this host, and says so', async () => {
    const path = fresh();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('close', resolve));
    writeFileSync(
      `${path}.lock`,
      JSON.stringify({ pid: dead.pid, host: hostname(), since: '2026-01-01T00:00:00.000Z' }),
    );
    const notices: string[] = [];
    const j = await Journal.open(path, CMD, { notice: (m) => notices.push(m) });
    await j.close();
    expect(notices).toEqual([
      `took over the journal lock of pid ${dead.pid} (a run started 2026-01-01T00:00:00.000Z): that process is gone`,
    ]);
  });

  it('refuses a lock held on another host (its pid cannot be checked from here), naming host and pid', async () => {
    const path = fresh();
    writeFileSync(
      `${path}.lock`,
      JSON.stringify({ pid: 4242, host: 'build-agent-7', since: '2026-01-01T00:00:00.000Z' }),
    );
    await expect(Journal.open(path, CMD)).rejects.toThrow('pid 4242 on host build-agent-7');
    expect(existsSync(path)).toBe(false);
  });

  it('treats a file holding only a torn header as a new journal', async () => {
    const path = fresh();
    writeFileSync(path, '{"udcli_journal":3,"opera');
    const r = await run({ journal: path, inputs: [HEX(1)], op: async () => undefined });
    expect(r.summary.ok).toBe(1);
    expect(lines(path)[0]).toMatchObject({ udcli_journal: 3, operation: 'achievements reset' });
  });

  it('keeps a user listed twice as two items, so a rerun does neither again', async () => {
    const path = fresh();
    let calls = 0;
    const first = await run({ journal: path, inputs: ['bob', 'bob'], idempotent: false, op: async () => void calls++ });
    expect(calls).toBe(2);
    expect(first.summary.ok).toBe(2);
    const second = await run({
      journal: path,
      inputs: ['bob', 'bob', 'bob'],
      idempotent: false,
      op: async () => void calls++,
    });
    expect(calls).toBe(3);
    expect(second.summary).toMatchObject({ skipped: 2, ok: 1 });
  });

  it('--dry-run reads the journal (showing what a resume would skip) but never creates or writes it', async () => {
    const missing = fresh();
    const dry = await run({ journal: missing, inputs: [HEX(1)], dryRun: true, op: async () => undefined });
    expect(dry.summary.dryRun).toBe(1);
    expect(existsSync(missing)).toBe(false);

    const path = fresh();
    await run({ journal: path, inputs: [HEX(1)], op: async () => undefined });
    const before = readFileSync(path, 'utf8');
    const r = await run({ journal: path, inputs: [HEX(1), HEX(2)], dryRun: true, op: async () => undefined });
    expect(r.results.get(HEX(1))!.status).toBe('skipped');
    expect(r.results.get(HEX(2))).toMatchObject({ status: 'dry-run', result: `would reset ${HEX(2)}` });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('a journal record is on disk before the item is reported', async () => {
    const path = fresh();
    const seenInFile: boolean[] = [];
    await runBatch({
      items: items([HEX(1), HEX(2), HEX(3)]),
      resolve: async (i) => i,
      idempotent: true,
      operation: async () => undefined,
      journal: { path, command: CMD },
      onResult: (r) => void seenInFile.push(readFileSync(path, 'utf8').includes(`"input":"${r.input}"`)),
    });
    expect(seenInFile).toEqual([true, true, true]);
  });
});

describe('journal: resuming decides from the state read before sending (issue 13)', () => {
  const INC = { operation: 'achievements inc', args: ['COLLECT', '--by', '1', '--game', '1001', '--type', 'Game'] };
  /** A fake service: each user's value; the operation reads it (journaling it), then adds 1. */
  function service(values: Map<string, number>) {
    return {
      operation: async (uid: string, _item: BatchItem, ctx: { started(before: unknown): Promise<void> }) => {
        await ctx.started({ current_value: values.get(uid) ?? 0, state: 'In Progress' });
        values.set(uid, (values.get(uid) ?? 0) + 1);
      },
      recover: async (uid: string, before: unknown) => {
        const was = (before as { current_value: number }).current_value;
        const now = values.get(uid) ?? 0;
        const detail = `before ${was}, now ${now}`;
        if (now === was + 1) return { outcome: 'applied' as const, detail, result: 'resolved' };
        if (now === was) return { outcome: 'not-applied' as const, detail };
        return { outcome: 'unknown' as const, detail };
      },
    };
  }
  const started = (line: number, uid: string, value: number) =>
    `${JSON.stringify({ line, input: uid, uid, status: 'started', at: 'x', before: { current_value: value, state: 'In Progress' } })}\n`;

  async function resume(
    path: string,
    inputs: string[],
    values: Map<string, number>,
    extra: { reread?: boolean; retryUnknown?: boolean } = {},
  ) {
    const list: BatchResult<unknown>[] = [];
    const svc = service(values);
    const summary = await runBatch<unknown>({
      items: items(inputs),
      ...(extra.reread ? { reread: () => items(inputs) as unknown as AsyncIterable<BatchItem> } : {}),
      resolve: async (i) => i,
      operation: svc.operation,
      journalsBefore: true,
      recover: svc.recover,
      idempotent: false,
      retryUnknown: extra.retryUnknown ?? false,
      journal: { path, command: INC },
      onResult: (r) => void list.push(r),
    });
    return { summary, byInput: new Map(list.map((r) => [r.input, r])) };
  }

  it('killed in flight: applied → ok "resolved"; not applied → sent now; changed by someone else → still unknown with both values', async () => {
    const path = fresh();
    await resume(path, [], new Map());
    // Three users in flight when the run was killed, each journaled with the value read before sending.
    appendFileSync(path, started(1, HEX(1), 4) + started(2, HEX(2), 4) + started(3, HEX(3), 4));
    const values = new Map([
      [HEX(1), 5], // the server applied it
      [HEX(2), 4], // it never arrived
      [HEX(3), 9], // someone else changed it meanwhile
    ]);
    const { summary, byInput } = await resume(path, [HEX(1), HEX(2), HEX(3)], values);
    expect(byInput.get(HEX(1))).toMatchObject({
      status: 'ok',
      result: 'resolved',
      resolved: { how: 'applied', detail: 'before 4, now 5' },
    });
    expect(byInput.get(HEX(2))).toMatchObject({ status: 'ok', resolved: { how: 'sent', detail: 'before 4, now 4' } });
    expect(byInput.get(HEX(3))).toMatchObject({
      status: 'unknown',
      error: { message: expect.stringContaining('before 4, now 9') },
    });
    expect(values).toEqual(
      new Map([
        [HEX(1), 5],
        [HEX(2), 5],
        [HEX(3), 9],
      ]),
    );
    expect(summary).toMatchObject({ ok: 0, resolved: 2, unknown: 1 });
    expect(formatSummary({ ...summary, elapsedMs: 0 })).toBe(
      'batch: 3 items: 0 ok, 2 resolved, 0 failed, 1 unknown, 0 skipped',
    );

    // The still-unknown one keeps its state: the next resume decides again (now applied, had it been fixed by hand).
    values.set(HEX(3), 5);
    const again = await resume(path, [HEX(1), HEX(2), HEX(3)], values);
    expect(again.byInput.get(HEX(3))).toMatchObject({ status: 'ok', resolved: { how: 'applied' } });
    expect(again.summary).toMatchObject({ skipped: 2, resolved: 1 });
  });

  it('--retry-unknown still decides from the state first: an applied change is not sent again; a still-unknown one is', async () => {
    const path = fresh();
    await resume(path, [], new Map());
    appendFileSync(path, started(1, HEX(1), 4) + started(2, HEX(2), 4));
    const values = new Map([
      [HEX(1), 5],
      [HEX(2), 9],
    ]);
    const { byInput } = await resume(path, [HEX(1), HEX(2)], values, { retryUnknown: true });
    expect(byInput.get(HEX(1))).toMatchObject({ status: 'ok', resolved: { how: 'applied' } });
    expect(byInput.get(HEX(2))).toMatchObject({ status: 'ok' });
    expect(byInput.get(HEX(2))!.resolved).toBeUndefined();
    expect(values).toEqual(
      new Map([
        [HEX(1), 5],
        [HEX(2), 10],
      ]),
    );
  });

  it('refuses a list other than the one the journal was written for, naming what differs, before sending anything (a file)', async () => {
    const path = fresh();
    const values = new Map<string, number>();
    await resume(path, [HEX(1), HEX(2), HEX(3)], values);
    appendFileSync(path, started(4, HEX(4), 0));
    const sent = new Map(values);
    await expect(resume(path, [HEX(1), HEX(9), HEX(3), HEX(4)], values, { reread: true })).rejects.toThrow(
      `written for another user list: line 2 was "${HEX(2)}", now "${HEX(9)}"`,
    );
    await expect(resume(path, [HEX(1), HEX(2), HEX(3), HEX(5)], values, { reread: true })).rejects.toThrow(
      `line 4 was "${HEX(4)}", now "${HEX(5)}"`,
    );
    await expect(resume(path, [HEX(1), HEX(2)], values, { reread: true })).rejects.toThrow(
      /the journal has line 3, the list ends at line 2/,
    );
    expect(values).toEqual(sent);
    // Users added after the journaled ones are fine: the list grew.
    const grown = await resume(path, [HEX(1), HEX(2), HEX(3), HEX(4), HEX(6)], values, { reread: true });
    expect(grown.summary).toMatchObject({ skipped: 3, resolved: 1, ok: 1 });
  });

  it('names the changed line of a long finished run, reading the list and the journal again in blocks (issue 54)', async () => {
    const path = fresh();
    const inputs = Array.from({ length: 10_000 }, (_, i) => HEX(i + 1));
    await run({ journal: path, inputs, op: async () => undefined });
    const sent: string[] = [];
    const again = (list: Array<string | null>) =>
      runBatch({
        // A null is a line made a comment: no item, its number skipped.
        items: list.flatMap((input, i) => (input === null ? [] : [{ line: i + 1, input }])),
        reread: () =>
          list.flatMap((input, i) =>
            input === null ? [] : [{ line: i + 1, input }],
          ) as unknown as AsyncIterable<BatchItem>,
        resolve: async (i) => i,
        operation: async (uid) => void sent.push(uid),
        idempotent: true,
        journal: { path, command: CMD },
        onResult: () => undefined,
      });
    const one = [...inputs] as Array<string | null>;
    one[5000] = 'carol';
    await expect(again(one)).rejects.toThrow(`line 5001 was "${HEX(5001)}", now "carol"`);
    const gone = [...inputs] as Array<string | null>;
    gone[6999] = null;
    await expect(again(gone)).rejects.toThrow(`line 7000 was "${HEX(7000)}", now blank or a comment`);
    const many = [...inputs] as Array<string | null>;
    for (const at of [10, 11, 3000, 9000, 9999]) many[at - 1] = `x${at}`;
    const err = await again(many).catch((e: unknown) => e as UsageError);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toMatch(
      /line 10 was .*; line 11 was .*; line 3000 was .*; and more after line 3000$/,
    );
    expect((err as UsageError).hint).toMatch(/put those lines back/);
    expect(sent).toEqual([]);
  });

  it('a skipped line carries what the earlier run recorded: its uid and result; an older journal says it has no details (issue 54)', async () => {
    const path = fresh();
    await run({
      journal: path,
      inputs: ['bob', HEX(2)],
      op: async (uid) => ({ before: 1, after: 0, undo: `udo ${uid}` }),
    });
    const again = await run({ journal: path, inputs: ['bob', HEX(2)], op: async () => ({}) });
    expect(again.results.get('bob')).toMatchObject({
      status: 'skipped',
      uid: HEX(3),
      result: { before: 1, after: 0, undo: `udo ${HEX(3)}` },
      earlier: { at: expect.any(String) },
    });
    const older = fresh();
    writeFileSync(
      older,
      `${readFileSync(path, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const { result: _, ...rest } = JSON.parse(l) as Record<string, unknown>;
          return JSON.stringify(rest);
        })
        .join('\n')}\n`,
    );
    const old = await run({ journal: older, inputs: ['bob', HEX(2)], op: async () => ({}) });
    expect(old.results.get('bob')).toMatchObject({ status: 'skipped', uid: HEX(3) });
    expect(old.results.get('bob')!.result).toBeUndefined();
    expect(old.results.get('bob')!.earlier!.note).toMatch(/not in this journal/);
  });

  it('checks standard input (read once) as it goes: a changed line stops the run with exit-2 UsageError', async () => {
    const path = fresh();
    await resume(path, [HEX(1), HEX(2)], new Map());
    await expect(resume(path, [HEX(7), HEX(2)], new Map())).rejects.toThrow(UsageError);
  });

  it('names what differs in another command: the game, or an argument', async () => {
    const path = fresh();
    await resume(path, [HEX(1)], new Map());
    await expect(
      Journal.open(path, { ...INC, args: ['COLLECT', '--by', '1', '--game', '1002', '--type', 'Game'] }),
    ).rejects.toThrow(/belongs to another command: it was written for game 1001, not 1002/);
    await expect(
      Journal.open(path, { ...INC, args: ['COLLECT', '--by', '2', '--game', '1001', '--type', 'Game'] }),
    ).rejects.toThrow(/it was written with 1 where this run has 2/);
    await expect(Journal.open(path, { operation: 'products give', args: [] })).rejects.toThrow(
      /it is a journal of `udcli achievements inc`, not `udcli products give`/,
    );
  });

  it('says so when it ignores a torn last line', async () => {
    const path = fresh();
    await resume(path, [HEX(1)], new Map());
    appendFileSync(path, '{"line":2,"inp');
    const notices: string[] = [];
    const j = await Journal.open(path, INC, { notice: (m) => notices.push(m) });
    await j.close();
    expect(notices).toEqual([`ignored the torn last line of journal ${path}: the run writing it was killed mid-write`]);
  });

  it('refuses a journal with a truncated record inside it, naming the line: it cannot say what was done there', async () => {
    const path = fresh();
    await resume(path, [HEX(1), HEX(2)], new Map());
    const text = readFileSync(path, 'utf8').split('\n');
    text[1] = text[1]!.slice(0, 12);
    writeFileSync(path, text.join('\n'));
    await expect(Journal.open(path, INC)).rejects.toThrow(
      new RegExp(`journal ${path} line 2 is not a journal record \\(truncated or edited\\?\\)`),
    );
    await expect(Journal.open(path, INC)).rejects.toThrow(UsageError);
  });

  it.for([
    ['a newer', 99],
    ['the earlier', 1],
  ] as const)('refuses a journal of %s format, also to read', async ([, format]) => {
    const path = fresh();
    writeFileSync(
      path,
      `${JSON.stringify({ udcli_journal: format, operation: INC.operation, args: INC.args, created: 'x' })}\n`,
    );
    await expect(Journal.open(path, INC)).rejects.toThrow(`is in format ${format}, which this udcli cannot resume`);
    await expect(Journal.open(path, INC, { readOnly: true })).rejects.toThrow(`is in format ${format}`);
  });

  it('a journal names its target; another server, game or profile is refused, naming what differs', async () => {
    const path = fresh();
    const target = { server: 'http://127.0.0.1:8787', game: '1001', profile: 'sandbox' };
    const j = await Journal.open(path, { ...INC, target, reason: 'rehearsal', ticket: 'SUP-1' });
    await j.close();
    expect(lines(path)[0]).toMatchObject({ udcli_journal: 3, target, reason: 'rehearsal', ticket: 'SUP-1' });
    // The same target resumes.
    await (await Journal.open(path, { ...INC, target })).close();
    await expect(
      Journal.open(path, { ...INC, target: { ...target, game: '1002' } }, { readOnly: true }),
    ).rejects.toThrow(/\(the game differs\)/);
    await expect(
      Journal.open(
        path,
        { ...INC, target: { server: 'https://api.example', game: '1001', profile: 'prod' } },
        { readOnly: true },
      ),
    ).rejects.toThrow(
      'was written for another target: profile sandbox on http://127.0.0.1:8787 (game 1001), not profile prod on https://api.example (game 1001) (the server and the profile differ); nothing was sent',
    );
  });
});

describe('journal survives kill -9', () => {
  const here = fileURLToPath(new URL('.', import.meta.url));
  const loader = join(here, 'fixtures', 'ts-loader.mjs');
  const child = join(here, 'fixtures', 'journal-child.ts');

  function start(args: string[]) {
    const p = spawn(process.execPath, ['--import', loader, child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      p.on('close', (code, signal) => resolve({ code, signal })),
    );
    return { p, exited, out: () => stdout, err: () => stderr };
  }

  /** Once the child has made `n` calls, to kill it mid-batch; a child that finishes first fails the test. */
  function callsReach(child: ReturnType<typeof start>, calls: string, n: number): Promise<true> {
    let finished = false;
    void child.exited.then(() => (finished = true));
    return until(
      () => {
        if (countCalls(calls).size >= n) return true;
        if (finished) throw new Error(`child finished before it was killed:\n${child.err()}`);
        return false;
      },
      `the child to make ${n} calls`,
      { intervalMs: 5 },
    );
  }

  const countCalls = (path: string) => {
    const m = new Map<string, number>();
    if (!existsSync(path)) return m;
    for (const uid of readFileSync(path, 'utf8').split('\n').filter(Boolean)) m.set(uid, (m.get(uid) ?? 0) + 1);
    return m;
  };

  /** In a new folder: the run's users list, its journal, and the log of the calls the worker made. */
  const killedRunFiles = () => {
    const dir = mkdtempSync(join(root, 'kill-'));
    return { list: join(dir, 'users.txt'), journal: join(dir, 'journal.ndjson'), calls: join(dir, 'calls.txt') };
  };

  it('resumes a killed non-idempotent batch: no item runs twice; the few killed in flight are unknown, the rest ok', async () => {
    const { list, journal, calls } = killedRunFiles();
    const N = 400;
    const uids = Array.from({ length: N }, (_, i) => HEX(i + 1));
    writeFileSync(list, `# users\n${uids.join('\n')}\n`);

    const first = start([list, journal, calls, 'mutation']);
    // kill once a good part of the batch has run
    await callsReach(first, calls, 120);
    first.p.kill('SIGKILL');
    expect((await first.exited).signal).toBe('SIGKILL');
    const callsAtKill = countCalls(calls);
    expect(callsAtKill.size).toBeLessThan(N);

    const second = start([list, journal, calls, 'mutation']);
    const { code } = await second.exited;
    expect(code, second.err()).toBe(0);
    const results = second
      .out()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { uid: string; status: string });
    expect(results.length).toBe(N);

    const after = countCalls(calls);
    for (const [uid, n] of after) expect(n, `${uid} ran ${n} times`).toBe(1);
    const byStatus = (s: string) => results.filter((r) => r.status === s).map((r) => r.uid);
    // in flight at the kill: sent (maybe) but not journaled as finished; at most the concurrency
    const unknown = byStatus('unknown');
    expect(unknown.length).toBeLessThanOrEqual(8);
    for (const uid of unknown) expect(callsAtKill.get(uid) ?? 0).toBeLessThanOrEqual(1);
    // everything else ran exactly once: either before the kill (skipped now) or in the resume (ok)
    for (const uid of [...byStatus('skipped'), ...byStatus('ok')]) expect(after.get(uid)).toBe(1);
    expect(byStatus('skipped').length + byStatus('ok').length + unknown.length).toBe(N);
    expect(byStatus('skipped').length).toBeGreaterThan(100);
  }, 60_000);

  it('resumes a killed idempotent batch: every item ends ok and only items in flight at the kill ran twice', async () => {
    const { list, journal, calls } = killedRunFiles();
    const N = 300;
    writeFileSync(list, Array.from({ length: N }, (_, i) => HEX(i + 1)).join('\n'));
    const first = start([list, journal, calls, 'idempotent']);
    await callsReach(first, calls, 100);
    first.p.kill('SIGKILL');
    await first.exited;

    const second = start([list, journal, calls, 'idempotent']);
    expect((await second.exited).code, second.err()).toBe(0);
    const summary = JSON.parse(second.err().trim().split('\n').pop()!) as BatchSummary;
    expect(summary.ok + summary.skipped).toBe(N);
    const after = countCalls(calls);
    expect(after.size).toBe(N);
    const twice = [...after.values()].filter((n) => n === 2).length;
    expect([...after.values()].every((n) => n <= 2)).toBe(true);
    expect(twice).toBeLessThanOrEqual(8);
  }, 60_000);
});
