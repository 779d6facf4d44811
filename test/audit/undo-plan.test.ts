/** `audit undo`'s reading of undo lines (issue 52 point 7): only what udcli writes becomes a batch. */
import { describe, expect, it } from 'vitest';
import { shellCommand } from '../../src/audit/shell.js';
import { checkedUndo, undoCommands, undoPlan } from '../../src/audit/undo-plan.js';
import type { AuditEntry } from '../../src/audit/log.js';

const UID = '01e528d59829836fd23b09085b56edab';
const OTHER = 'ffe528d59829836fd23b09085b56edab';

function entry(undo: string | null, extra: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time: '2026-01-01T00:00:00Z',
    operator: 'ana',
    profile: 'prod',
    command: 'udcli …',
    uid: UID,
    before: null,
    after: null,
    undo,
    ...extra,
  };
}

describe('undoCommands', () => {
  it('reads back what shellCommand writes, quotes and && included', () => {
    const a = ['achievements', 'reset', UID, 'SPEED RUN/100%'];
    const b = ['achievements', 'set', UID, 'SPEED RUN/100%', '50%', '--reason', "undo: the player's refund"];
    expect(undoCommands(`${shellCommand(a)} && ${shellCommand(b)}`)).toEqual([
      ['udcli', ...a],
      ['udcli', ...b],
    ]);
  });

  it('refuses what a shell would do more with: ; | $() backticks, double quotes, a dangling &&', () => {
    for (const line of [
      `udcli products take ${UID} gems; rm -rf ~`,
      `udcli products take ${UID} gems | sh`,
      `udcli products take ${UID} $(id)`,
      `udcli products take ${UID} \`id\``,
      `udcli products take ${UID} "gems"`,
      `udcli products take ${UID} gems &&`,
      `udcli products take ${UID} gems & udcli x`,
    ]) {
      expect(undoCommands(line), line).toBeNull();
    }
  });
});

describe('checkedUndo', () => {
  it("a change command for the line's own user, with an undo's flags; the line's reason and ticket added when it lacks them", () => {
    expect(
      checkedUndo({ uid: UID, reason: 'r', ticket: 'SUP-1' }, `udcli products take ${UID} gems --qty 5 --profile prod`),
    ).toEqual([
      ['products', 'take', UID, 'gems', '--qty', '5', '--profile', 'prod', '--reason', 'undo: r', '--ticket', 'SUP-1'],
    ]);
  });

  it('refuses another command, another user, a flag an undo never has, or a flag without its value', () => {
    for (const line of [
      `udcli sandbox reset`,
      `udcli api POST /x ${UID}`,
      `udcli products take ${OTHER} gems --qty 5`,
      `udcli products take ${UID} gems --qty 5 --api-key 0123`,
      `udcli products take ${UID} gems --qty`,
      `rm products take ${UID} gems`,
    ]) {
      expect(checkedUndo({ uid: UID }, line), line).toBeNull();
    }
  });
});

describe('undoPlan', () => {
  it('one step per command shape; the same thing changed twice undone newest first; no undo and unknown outcomes left out', () => {
    const take = (uid: string, qty: number) => `udcli products take ${uid} gems --qty ${qty} --profile prod`;
    const plan = undoPlan([
      entry(take(UID, 5), { id: 'r.1' }),
      entry(take(OTHER, 5), { id: 'r.2', uid: OTHER }),
      entry(take(UID, 7), { id: 'r.3' }),
      entry(null, { id: 'r.4', change: 'nothing changed' }),
      entry(null, { id: 'r.5', kind: 'unknown' }),
      entry(null, { id: 'r.6', kind: 'unknown' }),
      entry(take(OTHER, 9), { id: 'r.7', uid: OTHER, kind: 'resolved', closes: 'r.6', outcome: 'applied' }),
      entry(`udcli products take ${UID} gems; id`, { id: 'r.8' }),
    ]);
    expect(plan.steps.map((s) => [s.commands[0]!.join(' '), s.uids])).toEqual([
      ['products take  gems --qty 9 --profile prod', [OTHER]],
      ['products take  gems --qty 7 --profile prod', [UID]],
      ['products take  gems --qty 5 --profile prod', [OTHER, UID]],
    ]);
    expect(plan.leftOut.map((l) => [l.entry.id, l.why])).toEqual([
      ['r.4', 'no undo'],
      ['r.8', 'undo unreadable'],
      ['r.5', 'outcome unknown'],
    ]);
  });
});

describe('undoPlan and written-ahead lines', () => {
  it('an intent no line closed is left out as of unknown outcome; one its change line closed is undone', () => {
    const undo = `udcli products take ${UID} gems --qty 5 --profile prod`;
    const plan = undoPlan([
      entry(undo, { kind: 'intent', id: 'r.1' }),
      entry(undo, { kind: 'change', id: 'r.2', closes: 'r.1' }),
      entry(undo, { kind: 'intent', id: 'r.3', uid: OTHER }),
    ]);
    expect(plan.leftOut.map((l) => [l.entry.id, l.why])).toEqual([['r.3', 'outcome unknown']]);
    expect(plan.steps.flatMap((s) => s.uids)).toEqual([UID]);
  });
});
