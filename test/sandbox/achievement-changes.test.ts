/** A change of a user's quest at the repository: its own transaction, or the caller's with nothing of its own. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SandboxDatabase } from '../../src/sandbox/database.js';
import { seedDemo } from '../../src/sandbox/seed/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';

const USER = uidForUsername('player_0200');

describe('achievements.change', () => {
  let db: SandboxDatabase;
  beforeEach(() => {
    db = openDatabase(':memory:');
    seedDemo(db);
  });
  afterEach(() => db.close());

  const quest = () => db.repos.achievements.questByDeveloperId('Game', '1001', 'COLLECT_1000_GEMS')!;

  it('reads of a definition only what a change needs, the same as the whole definition says', () => {
    const whole = db.repos.achievements.definitionByDeveloperId('Game', '1001', 'COLLECT_1000_GEMS')!;
    const { id, parentId, parentType, developerId, startValue, targetValue, score, state } = whole;
    expect(quest()).toEqual({ id, parentId, parentType, developerId, startValue, targetValue, score, state });
    expect(db.repos.achievements.questByDeveloperId('Game', '1001', 'NO_SUCH_QUEST')).toBeUndefined();
  });

  it('finds the user, the parent and the quest a request names in one lookup, each known or not', () => {
    const { achievements } = db.repos;
    expect(achievements.questOf(USER, 'Game', '1001', 'COLLECT_1000_GEMS')).toEqual({
      userKnown: true,
      parentKnown: true,
      quest: quest(),
    });
    expect(achievements.questOf('f'.repeat(32), 'Game', '1001', 'COLLECT_1000_GEMS')).toMatchObject({
      userKnown: false,
      parentKnown: true,
    });
    expect(achievements.questOf(USER, 'Website', '1001', 'COLLECT_1000_GEMS')).toEqual({
      userKnown: true,
      parentKnown: false,
      quest: undefined,
    });
    expect(achievements.questOf(USER, 'Game', '1001', 'NO_SUCH_QUEST')).toEqual({
      userKnown: true,
      parentKnown: true,
      quest: undefined,
    });
  });

  it('starts a quest, then adds to it, in its own transaction when the caller has none', () => {
    const def = quest();
    const before = db.repos.achievements.find(USER, def.id)?.currentValue ?? def.startValue;
    db.repos.achievements.change(USER, def, { kind: 'increment', by: 5 }, 1_700_000_000);
    const result = db.repos.achievements.change(USER, def, { kind: 'increment', by: 7 }, 1_700_000_100);
    expect(result).toMatchObject({ currentValue: before + 12, developerId: 'COLLECT_1000_GEMS' });
    expect(db.repos.achievements.find(USER, def.id)).toMatchObject({ currentValue: before + 12 });
    expect(db.sqlite.inTransaction).toBe(false);
  });

  it("inside the caller's transaction, is undone with it", () => {
    const def = quest();
    const before = db.repos.achievements.find(USER, def.id);
    expect(() =>
      db.transaction(() => {
        db.repos.achievements.change(USER, def, { kind: 'increment', by: 5 }, 1_700_000_000);
        expect(db.repos.achievements.find(USER, def.id)?.currentValue).toBe((before?.currentValue ?? 0) + 5);
        throw new Error('the caller fails after the change');
      }),
    ).toThrow('the caller fails');
    expect(db.repos.achievements.find(USER, def.id)).toEqual(before);
  });
});
