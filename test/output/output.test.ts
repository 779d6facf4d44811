import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { GlobalOptions } from '../../src/ops/factory.js';
import { UsageError } from '../../src/errors.js';
import { csvCell, csvField, csvLine } from '../../src/output/csv.js';
import { createOutput } from '../../src/output/output.js';
import { guardStdout } from '../../src/output/pipe.js';
import { resolveColor, resolveFormat, shouldSpin } from '../../src/output/policy.js';
import type { Column, OutputFormat } from '../../src/output/types.js';
import { fakeIO } from './fake-io.js';

interface Row {
  uid: string;
  username: string;
  note?: string;
  extra?: unknown;
}

const COLUMNS: ReadonlyArray<Column<Row>> = [
  { key: 'uid', header: 'UID', cell: (r) => r.uid },
  { key: 'username', header: 'USERNAME', cell: (r) => r.username },
];

const ROWS: Row[] = [
  { uid: 'a1', username: 'alice', extra: { nested: true } },
  { uid: 'b2', username: 'bob', note: 'x' },
];

type G = Pick<GlobalOptions, 'output' | 'fields' | 'color' | 'quiet'>;

function globals(overrides: Partial<G> = {}): G {
  return { color: true, quiet: false, ...overrides };
}

describe('format and colour policy', () => {
  it('defaults to a table on a terminal and JSON when piped; -o wins', () => {
    expect(resolveFormat(undefined, true)).toBe('table');
    expect(resolveFormat(undefined, false)).toBe('json');
    expect(resolveFormat('csv', true)).toBe('csv');
    expect(resolveFormat('table', false)).toBe('table');
  });

  it('colours only tables, honouring --no-color, NO_COLOR, FORCE_COLOR and the terminal', () => {
    const base = { format: 'table' as OutputFormat, flag: true, env: {}, stdoutIsTTY: true };
    expect(resolveColor(base)).toBe(true);
    expect(resolveColor({ ...base, format: 'json' })).toBe(false);
    expect(resolveColor({ ...base, format: 'json', env: { FORCE_COLOR: '1' } })).toBe(false);
    expect(resolveColor({ ...base, flag: false, env: { FORCE_COLOR: '1' } })).toBe(false);
    expect(resolveColor({ ...base, env: { NO_COLOR: '1' } })).toBe(false);
    expect(resolveColor({ ...base, stdoutIsTTY: false })).toBe(false);
    expect(resolveColor({ ...base, stdoutIsTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(resolveColor({ ...base, env: { FORCE_COLOR: '0' } })).toBe(false);
    expect(resolveColor({ ...base, env: { NO_COLOR: '' } })).toBe(true);
  });

  it('spins only on a terminal stderr, for tables, without --quiet', () => {
    expect(shouldSpin('table', { quiet: false }, { stderrIsTTY: true })).toBe(true);
    expect(shouldSpin('json', { quiet: false }, { stderrIsTTY: true })).toBe(false);
    expect(shouldSpin('table', { quiet: true }, { stderrIsTTY: true })).toBe(false);
    expect(shouldSpin('table', { quiet: false }, { stderrIsTTY: false })).toBe(false);
  });
});

describe('CSV', () => {
  it('quotes per RFC 4180', () => {
    for (const [field, written] of [
      ['plain', 'plain'],
      ['a,b', '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ['two\nlines', '"two\nlines"'],
      ['cr\rhere', '"cr\rhere"'],
      ['', ''],
    ] as const) {
      expect(csvField(field), JSON.stringify(field)).toBe(written);
    }
    expect(csvLine(['a', 'b,c', ''])).toBe('a,"b,c",\n');
  });

  it('neutralizes a cell a spreadsheet would run as a formula: a quote in front, inside quotes (OWASP)', () => {
    for (const [cell, written] of [
      ['=HYPERLINK("http://x","y")', '"\'=HYPERLINK(""http://x"",""y"")"'],
      ['+1+cmd', '"\'+1+cmd"'],
      ['-1+cmd', '"\'-1+cmd"'],
      ['@SUM(A1)', '"\'@SUM(A1)"'],
      ['\t=1', '"\'\\x09=1"'],
      ['\r=1', '"\'\\x0d=1"'],
      ['-', '"\'-"'],
    ] as const) {
      expect(csvCell(cell), JSON.stringify(cell)).toBe(written);
    }
  });

  it('leaves plain numbers, and formula characters after the first, as they are', () => {
    for (const n of ['-5', '+5', '-2.5', '-.5', '-1e3', '+1.5E-2', '0', '42']) expect(csvCell(n)).toBe(n);
    expect(csvCell('a=1')).toBe('a=1');
    expect(csvLine(['-5', '=1'])).toBe('-5,"\'=1"\n');
  });
});

describe('json', () => {
  it('prints an item with every field, pretty', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'json' }) });
    out.item(ROWS[0]!, COLUMNS);
    expect(f.stdout()).toBe(`${JSON.stringify(ROWS[0], null, 2)}\n`);
  });

  it('streams a list as exactly the array JSON.stringify would print', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'json' }) });
    await out.list(ROWS, COLUMNS);
    expect(f.stdout()).toBe(`${JSON.stringify(ROWS, null, 2)}\n`);
    const empty = fakeIO();
    await (await createOutput({ io: empty.io, globals: globals({ output: 'json' }) })).list([], COLUMNS);
    expect(empty.stdout()).toBe('[]\n');
  });

  it('keeps only --fields keys, in that order, including ones without a column', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'json', fields: ['extra', 'uid'] }) });
    await out.list(ROWS, COLUMNS);
    expect(JSON.parse(f.stdout())).toEqual([
      { extra: { nested: true }, uid: 'a1' },
      { extra: null, uid: 'b2' },
    ]);
    expect(f.stdout().indexOf('extra')).toBeLessThan(f.stdout().indexOf('uid'));
  });

  it('rejects an unknown field, listing the available ones', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'json', fields: ['nope'] }) });
    expect(() => out.item(ROWS[0]!, COLUMNS)).toThrow(UsageError);
    expect(() => out.item(ROWS[0]!, COLUMNS)).toThrow(/unknown field "nope".*available: uid, username, extra/);
    await expect(out.list(ROWS, COLUMNS)).rejects.toThrow(/unknown field "nope"/);
    expect(f.stdout()).toBe('');
  });
});

describe('ndjson', () => {
  it('writes one object a line as rows arrive: rows on hand in one write, none held while the source waits', async () => {
    const f = fakeIO();
    let writes = 0;
    const write = f.io.stdout.write.bind(f.io.stdout);
    f.io.stdout.write = ((chunk: string) => {
      writes++;
      return write(chunk);
    }) as typeof f.io.stdout.write;
    const out = await createOutput({ io: f.io, globals: globals({ output: 'ndjson' }) });
    const linesWhileWaiting: number[] = [];
    const rows = (async function* () {
      // two rows on hand together (one page), then the source waits (the next page)
      yield ROWS[0]!;
      yield ROWS[1]!;
      await new Promise((r) => setTimeout(r, 20));
      linesWhileWaiting.push(f.stdout().split('\n').length - 1);
      yield { ...ROWS[0]!, uid: 'c3' };
    })();
    await out.list(rows, COLUMNS);
    // both rows were out while the source waited, in one write; the last row in a second one
    expect(linesWhileWaiting).toEqual([2]);
    expect(writes).toBe(2);
    expect(
      f
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([...ROWS, { ...ROWS[0]!, uid: 'c3' }]);
  });

  it('prints the rows received before the source failed', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'ndjson' }) });
    const rows = (async function* () {
      yield ROWS[0]!;
      throw new Error('page 2 failed');
    })();
    await expect(out.list(rows, COLUMNS)).rejects.toThrow('page 2 failed');
    expect(
      f
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([ROWS[0]]);
  });

  it('applies --fields', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'ndjson', fields: ['username'] }) });
    await out.list(ROWS, COLUMNS);
    expect(f.stdout()).toBe('{"username":"alice"}\n{"username":"bob"}\n');
  });
});

describe('csv', () => {
  it('prints a header of field names and quoted rows', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'csv' }) });
    await out.list([{ uid: 'a,1', username: 'say "x"' }], COLUMNS);
    expect(f.stdout()).toBe('uid,username\n"a,1","say ""x"""\n');
  });

  it('selects and orders columns with --fields, also data keys without a column', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'csv', fields: ['note', 'uid'] }) });
    await out.list([ROWS[1]!, ROWS[0]!], COLUMNS);
    expect(f.stdout()).toBe('note,uid\nx,b2\n,a1\n');
  });

  it('holds the raw value of each field; only a computed column takes its table text (issue 15)', async () => {
    type Row = { developer_id: string; percent_complete: number; created_on: string; completed_date: string | null };
    const columns = [
      { key: 'developer_id', header: 'DEVELOPER ID', cell: (r: Row) => r.developer_id },
      { key: 'percent_complete', header: 'PROGRESS', cell: (r: Row) => `4/10 (${r.percent_complete}%)` },
      { key: 'created_on', header: 'CREATED', cell: () => '2020-03-14T12:00:00Z' },
      { key: 'completed_date', header: 'COMPLETED', cell: () => '-' },
      { key: 'held', header: 'HELD', cell: () => 'yes' },
    ];
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'csv' }) });
    await out.list(
      [{ developer_id: 'LEVEL_10', percent_complete: 33.33, created_on: '1584187200', completed_date: null }],
      columns,
    );
    expect(f.stdout()).toBe(
      'developer_id,percent_complete,created_on,completed_date,held\nLEVEL_10,33.33,1584187200,,yes\n',
    );
  });

  it('prints the header alone for an empty list and one row for an item', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'csv' }) });
    await out.list([], COLUMNS);
    out.item(ROWS[0]!, COLUMNS);
    expect(f.stdout()).toBe('uid,username\nuid,username\na1,alice\n');
  });
});

describe('table', () => {
  it('prints a header and aligned rows without colour when off', async () => {
    const f = fakeIO({ tty: false });
    const out = await createOutput({ io: f.io, globals: globals({ output: 'table' }) });
    expect(out.color).toBe(false);
    await out.list(ROWS, COLUMNS);
    expect(f.stdout()).toBe('UID  USERNAME\na1   alice\nb2   bob\n');
  });

  it('makes the header bold when colour is on, and only then', async () => {
    const f = fakeIO({ tty: true });
    const out = await createOutput({ io: f.io, globals: globals() });
    expect(out.format).toBe('table');
    expect(out.color).toBe(true);
    await out.list(ROWS, COLUMNS);
    expect(f.stdout()).toContain('\u001b[1mUID\u001b[22m');
    const plain = fakeIO({ tty: true, env: { NO_COLOR: '1' } });
    await (await createOutput({ io: plain.io, globals: globals() })).list(ROWS, COLUMNS);
    expect(plain.stdout()).not.toContain('\u001b[');
  });

  it('prints an item as key/value lines and honours --fields', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'table', fields: ['username'] }) });
    out.item(ROWS[0]!, COLUMNS);
    expect(f.stdout()).toBe('USERNAME  alice\n');
  });

  it('says so on stderr when a list is empty', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'table' }) });
    await out.list([], COLUMNS);
    expect(f.stdout()).toBe('');
    expect(f.stderr()).toBe('no results\n');
  });
});

describe('text, raw, info and spinner', () => {
  it('raw prints the body as received plus a newline', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'json' }) });
    out.raw('{"version":1}');
    out.raw('<xml/>\n');
    expect(f.stdout()).toBe('{"version":1}\n<xml/>\n');
  });

  it('info goes to stderr unless --quiet; warnings always', async () => {
    const f = fakeIO();
    const out = await createOutput({ io: f.io, globals: globals({ output: 'json' }) });
    out.info('hello');
    out.warn('careful');
    const q = fakeIO();
    const quiet = await createOutput({ io: q.io, globals: globals({ output: 'json', quiet: true }) });
    quiet.info('hello');
    quiet.warn('careful');
    expect(f.stderr()).toBe('hello\nwarning: careful\n');
    expect(q.stderr()).toBe('warning: careful\n');
    expect(f.stdout() + q.stdout()).toBe('');
  });

  it('spins on a terminal stderr only, and returns what the work returns', async () => {
    const tty = fakeIO({ tty: true });
    const out = await createOutput({ io: tty.io, globals: globals() });
    await expect(out.spin('Working', async () => 42)).resolves.toBe(42);
    expect(tty.stderr()).toContain('Working');
    expect(tty.stdout()).toBe('');
    const piped = fakeIO({ tty: false, stderrTTY: false });
    const plain = await createOutput({ io: piped.io, globals: globals({ output: 'table' }) });
    await expect(plain.spin('Working', async () => 7)).resolves.toBe(7);
    expect(piped.stderr()).toBe('');
  });
});

describe('a closed stdout', () => {
  it('stops pulling rows once the reader has gone (EPIPE)', async () => {
    const stdout = new Writable({
      write(_chunk, _enc, cb) {
        const error = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        cb(error);
      },
    });
    guardStdout(stdout);
    const f = fakeIO();
    const io = { ...f.io, stdout };
    const out = await createOutput({ io, globals: globals({ output: 'ndjson' }) });
    let pulled = 0;
    const endless = (async function* () {
      for (;;) {
        pulled++;
        yield { uid: String(pulled), username: 'u' };
        await new Promise((r) => setImmediate(r));
      }
    })();
    await out.list(endless, COLUMNS);
    expect(pulled).toBeLessThan(10);
  });
});
