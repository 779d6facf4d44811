import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import {
  addProfile,
  DEMO_CREDENTIAL_FLAGS,
  json,
  nowhere,
  runOnTerminal,
  type CliResult,
  type RunOptions,
} from './harness.js';

const UID = DEMO.user.uid;

interface Entry {
  /** contract: Products — units of a consumable, "active" for a held unlockable, false when not held. */
  purchase: { success: boolean; data: number | boolean; message: string };
  product: { id: number; sku: string; name: string; type: string; price: string };
}

const env = fileSandbox();
/** A consumable the demo player does not hold in the demo seed. */
const sku = 'xp-boost';

/** Every run also asserts that no demo secret appears in its output. */
const udcli = (args: string[], o?: RunOptions): Promise<CliResult> => env.runChecked(args, o);

/** Puts the sandbox back to the demo data as seeded, for a test that asserts the seed itself. */
async function reseed(): Promise<void> {
  const r = await fetch(`${env.sandbox.url}/_sandbox/reset`, { method: 'POST' });
  expect(r.status, await r.text()).toBe(200);
}

/** Gives the demo player `qty` more of the consumable, for a test that takes some and must find them held. */
async function stock(qty: number): Promise<void> {
  const r = await env.run(['products', 'give', UID, sku, '--qty', String(qty)]);
  expect(r.code, r.stderr).toBe(0);
}

async function quantity(): Promise<number> {
  const r = await env.read(['products', 'list', UID, '--sku', sku, '--json']);
  expect(r.code, r.stderr).toBe(0);
  const entry = json<Entry[]>(r).find((e) => e.product.sku === sku);
  return typeof entry?.purchase.data === 'number' ? entry.purchase.data : 0;
}

describe('udcli products', () => {
  it('lists every product of the game, held or not, as JSON and as a table whose HELD column says which', async () => {
    // What the player holds as seeded: the other tests give and take.
    await reseed();
    const r = await udcli(['products', 'list', UID, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const entries = json<Entry[]>(r);
    // demo_player holds the sword (unlockable) and 250 gems (a consumable in two packs), nothing else.
    expect(entries.filter((e) => e.purchase.success).map((e) => [e.product.sku, e.purchase.data])).toEqual([
      ['sword-of-dawn', true],
      ['gems:100', 250],
      ['gems:500', 250],
    ]);
    expect(entries.length).toBeGreaterThan(3);
    const table = await udcli(['products', 'list', UID, '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    const header = table.stdout.split('\n')[0]!.toUpperCase();
    for (const h of ['SKU', 'NAME', 'TYPE', 'HELD', 'PRICE']) expect(header).toContain(h);
    for (const e of entries) {
      const line = table.stdout.split('\n').find((l) => l.includes(e.product.sku));
      expect(line, e.product.sku).toBeDefined();
      expect(line).toContain(e.product.price);
      const held =
        typeof e.purchase.data === 'number' ? String(e.purchase.data) : e.purchase.data === true ? 'yes' : '-';
      expect(line!.trim().split(/\s{2,}/)[3], e.product.sku).toBe(held);
    }
  });

  it('--sku narrows to one product; csv has the columns as a header', async () => {
    const one = json<Entry[]>(await udcli(['products', 'list', UID, '--sku', sku, '--json']));
    expect(one.map((e) => e.product.sku)).toEqual([sku]);
    const csv = await udcli(['products', 'list', UID, '--sku', sku, '-o', 'csv']);
    expect(csv.stdout.split(/\r?\n/)[0]!.toLowerCase()).toBe('sku,name,type,held,price');
  });

  it('--fields picks product fields and the quantity', async () => {
    const before = await quantity();
    const r = await udcli(['products', 'list', UID, '--sku', sku, '--json', '--fields', 'sku,quantity']);
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toEqual([{ sku, quantity: before }]);
  });

  it('give --qty 3 (signed PUT) then list shows 3 more', async () => {
    const before = await quantity();
    const r = await udcli(['products', 'give', UID, sku, '--qty', '3', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(json<Entry>(r).product.sku).toBe(sku);
    expect(await quantity()).toBe(before + 3);
  });

  it('give --post (unsigned grant) adds one by default', async () => {
    const before = await quantity();
    const r = await udcli(['products', 'give', UID, sku, '--post', '--json'], {
      env: { UDCLI_SIGNING_SECRET: 'unused-for-post' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(await quantity()).toBe(before + 1);
  });

  it('take --qty 2 removes two', async () => {
    // One left after: a take of the last unit reports `false` (not held), not a count.
    await stock(3);
    const before = await quantity();
    const r = await udcli(['products', 'take', UID, sku, '--qty', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const entry = json<Entry>(r);
    expect(entry.purchase.data).toBe(before - 2);
    expect(await quantity()).toBe(before - 2);
  });

  it('take more than held: exit 1, "insufficient quantity", nothing changes', async () => {
    const before = await quantity();
    const r = await udcli(['products', 'take', UID, sku, '--qty', String(before + 1)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^udcli: .*insufficient quantity/);
    expect(await quantity()).toBe(before);
  });

  it.each([
    [['give', UID, 'SKU', '--qty', '0'], /invalid --qty "0"/],
    [['give', UID, 'SKU', '--qty', '1.5'], /invalid --qty "1.5"/],
    [['take', UID, 'SKU', '--qty', '-2'], /--qty/],
    [['give', 'not a name', 'SKU'], /invalid uid "not a name"/],
    [['list', UID, '--type', 'shop'], /expected Game or Website/],
  ])('usage error (exit 2, nothing sent): %j', async (args, message) => {
    const r = await udcli(['products', ...args, '--verbose'], { env: await nowhere() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/^→ /m); // no request line in the --verbose trace
  });

  it('a sku with non-ASCII characters and a plus sign (an unlockable: held once, however many are given)', async () => {
    const odd = 'héros+épée';
    const give = await udcli(['products', 'give', UID, odd, '--qty', '2', '--json']);
    expect(give.code, give.stderr).toBe(0);
    expect(json<Entry>(give).product.sku).toBe(odd);
    const list = json<Entry[]>(await udcli(['products', 'list', UID, '--sku', odd, '--json']));
    expect(list.map((e) => [e.product.sku, e.purchase.data])).toEqual([[odd, true]]);
  });

  it("a consumable by its base: list --sku gems is one entry (the smallest pack, the base's units); give gems adds units, take by the base removes units", async () => {
    const listed = async (sku: string) =>
      json<Entry[]>(await udcli(['products', 'list', UID, '--sku', sku, '--json'])).map((e) => [
        e.product.sku,
        e.purchase.data,
      ]);
    const [[, before]] = (await listed('gems')) as [[string, number]];
    expect(await listed('gems')).toEqual([['gems:100', before]]);
    expect((await udcli(['products', 'give', UID, 'gems', '--qty', '10'])).code).toBe(0);
    expect(await listed('gems')).toEqual([['gems:100', before + 10]]);
    expect(await listed('gems:500')).toEqual([['gems:500', before + 10]]);
    expect((await udcli(['products', 'take', UID, 'gems', '--qty', '4'])).code).toBe(0);
    expect(await listed('gems')).toEqual([['gems:100', before + 6]]);
  });

  it("give --post naming a pack grants qty packs (2 × gems:500: 1,000 units); the receipt's undo takes 1,000 units", async () => {
    const units = async () =>
      json<Entry[]>(await udcli(['products', 'list', UID, '--sku', 'gems', '--json']))[0]!.purchase.data as number;
    const before = await units();
    const r = await udcli(['products', 'give', UID, 'gems:500', '--qty', '2', '--post']);
    expect(r.code, r.stderr).toBe(0);
    expect(await units()).toBe(before + 1000);
    expect(r.stderr).toContain(`gems:500 of ${UID.slice(0, 4)}…: ${before} → ${before + 1000}`);
    expect(r.stderr).toContain(`udcli products take ${UID} gems --qty 1000 --profile sandbox`);
    // A grant naming the base counts units.
    expect((await udcli(['products', 'give', UID, 'gems', '--qty', '3', '--post'])).code).toBe(0);
    expect(await units()).toBe(before + 1003);
  });

  it('an unknown sku: exit 4', async () => {
    const r = await udcli(['products', 'give', UID, 'NO_SUCH_SKU']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/not found/);
  });

  it('a wrong api key: exit 3', async () => {
    const r = await udcli(['products', 'list', UID], { env: { UDCLI_API_KEY: 'e'.repeat(32) } });
    expect(r.code).toBe(3);
  });

  it('--verbose on a signed PUT keeps the secrets out of stderr', async () => {
    const r = await udcli(['products', 'give', UID, sku, '--verbose', '--json']);
    expect(r.code, r.stderr).toBe(0);
    // issue 9: under agi, POST with method=put; the challenge's session and the sig are redacted too.
    expect(r.stderr).toMatch(/→ POST \S+&method=put&session=[0-9a-f]{4}…[0-9a-f]{4}&sig=[0-9a-f]{4}…[0-9a-f]{4}\n/);
    expect(r.stderr).toContain('0123…cdef');
    expect(r.stderr).not.toMatch(/(sig|session|key)=[0-9a-f]{32}/);
  });
});

describe('a production profile on a terminal', () => {
  it('take asks for the profile name: a wrong name changes nothing (exit 2), the right one takes', async () => {
    await addProfile(udcli, 'live', env.sandbox.url, ...DEMO_CREDENTIAL_FLAGS, '--production');
    const prompt = 'Type the profile name (live) to continue:';
    await stock(1);
    const before = await quantity();

    const wrong = await runOnTerminal(['--profile', 'live', 'products', 'take', UID, sku], env.env, {
      prompt,
      input: 'sandbox\n',
    });
    expect(wrong.stdout).toContain('PRODUCTION profile "live"');
    expect(wrong.code).toBe(2);
    expect(await quantity()).toBe(before);

    const right = await runOnTerminal(['--profile', 'live', 'products', 'take', UID, sku, '--json'], env.env, {
      prompt,
      input: 'live\n',
    });
    expect(right.code, right.stdout).toBe(0);
    expect(right.stdout).toContain(`Undo:    udcli products give ${UID} ${sku} --qty 1`);
    expect(await quantity()).toBe(before - 1);
  });
});
