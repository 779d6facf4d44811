/**
 * `sandbox reset` wipes every user, record and content URI (issue 15, polish): on a terminal it
 * asks first; off one (scripts, CI) and with --yes it goes ahead as before.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess, runOnTerminal } from './harness.js';
import { fileScratch } from '../scratch.js';

const root = fileScratch('udcli-e2e-reset-ask-');
const env: NodeJS.ProcessEnv = { UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') };
const db = join(root, 'sandbox.db');

const identity = (): string => {
  const s = statSync(db);
  return `${s.ino}:${s.mtimeMs}`;
};

describe('sandbox reset on a terminal', () => {
  it('asks first: "n" keeps the database as it was, "y" recreates it', async () => {
    const made = await runInProcess(['sandbox', 'reset', '--db', db, '--seed', 'none'], env);
    expect(made.code, made.stderr).toBe(0); // nothing to wipe yet: no question
    const before = identity();

    const no = await runOnTerminal(['sandbox', 'reset', '--db', db], env, { prompt: '[y/N]', input: 'n\n' });
    expect(no.stdout).toContain(`Wipe ${db} (every user, record and content URI in it) and recreate it`);
    expect(no.stdout).toMatch(/cancelled/);
    expect(no.code).toBe(2);
    expect(identity()).toBe(before);

    const yes = await runOnTerminal(['sandbox', 'reset', '--db', db], env, { prompt: '[y/N]', input: 'y\n' });
    expect(yes.code, yes.stdout).toBe(0);
    expect(yes.stdout).toContain(`recreated ${db}`);
    expect(identity()).not.toBe(before);
  }, 60_000);

  it('off a terminal, and with --yes, it goes ahead without asking', async () => {
    const piped = await runInProcess(['sandbox', 'reset', '--db', db], env);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).not.toMatch(/\[y\/N\]/);
    const yes = await runOnTerminal(['sandbox', 'reset', '--db', db, '--yes'], env, { prompt: 'recreated', input: '' });
    expect(yes.code, yes.stdout).toBe(0);
    expect(yes.stdout).not.toMatch(/\[y\/N\]/);
  }, 60_000);
});
