// Over 400 lines: all SQL of quest definitions and progress, the list query's filters and orders among it.
/** Achievement definitions and users' progress on them. */
import type { Database, Statement } from 'better-sqlite3';
import type { Comparator, DefinitionState, ListFilterKind, ListOrder, SortDirection } from '../../domain/contract.js';
import type { ParentType } from '../../domain/types.js';
import {
  nextProgress,
  percentComplete,
  RevokedQuest,
  type Progress,
  type ProgressChange,
  type UserAchievementState,
} from '../domain/achievements.js';

export type { DefinitionState };

export interface DefinitionRecord {
  id: number;
  parentId: string;
  parentType: ParentType;
  developerId: string;
  name: string;
  description: string;
  adminDescription: string;
  icon: string;
  startValue: number;
  targetValue: number;
  score: number;
  state: DefinitionState;
  tags: Record<string, string>;
  createdOn: number;
  updatedOn: number;
  completionCount: number;
}

export type NewDefinition = Omit<DefinitionRecord, 'id' | 'parentType' | 'completionCount'>;

/**
 * What a change of a user's quest needs of its definition: no tags to parse, no completions to count
 * (they are the reply of the definitions' own endpoint).
 */
export type QuestDefinition = Pick<
  DefinitionRecord,
  'id' | 'parentId' | 'parentType' | 'developerId' | 'startValue' | 'targetValue' | 'score' | 'state'
>;

/** A user's progress joined with its definition. */
export interface UserAchievementRecord extends Progress {
  id: number;
  uid: string;
  achievementId: number;
  parentId: string;
  parentType: ParentType;
  percentComplete: number;
  developerId: string;
  name: string;
  startValue: number;
  targetValue: number;
}

/**
 * A row of the user's list: only quests the user has started are listed (the platform's pages;
 * a game joins the list with its own definitions).
 */
export type ListedAchievement = UserAchievementRecord;

/** The reply of a PUT: what the progress is now (also when nothing changed). */
export interface ProgressResult {
  state: UserAchievementState;
  currentValue: number;
  percentComplete: number;
  developerId: string;
  /** The definition's score when this request completed it, else 0. */
  scoreAwarded: number;
  /** It was Completed before this request. */
  alreadyCompleted: boolean;
  completedOn: number | null;
}

export type { Comparator, ListOrder, SortDirection };
export type ListFilter =
  | { kind: Exclude<ListFilterKind, 'percent_complete'>; match: string }
  | { kind: 'percent_complete'; comparator: Comparator; value: number };

export interface ListQuery {
  uid: string;
  parentType: ParentType;
  parentId: string;
  developerId?: string;
  filter?: ListFilter;
  order: ListOrder;
  sort: SortDirection;
  limit: number;
  offset: number;
}

export interface DefinitionRow {
  id: number;
  parent_id: string;
  parent_type: ParentType;
  developer_id: string;
  name: string;
  description: string;
  admin_description: string;
  icon: string;
  start_value: number;
  target_value: number;
  score: number;
  state: DefinitionState;
  tags: string;
  created_on: number;
  updated_on: number;
  completion_count: number;
}

interface QuestDefinitionRow {
  id: number;
  parent_id: string;
  parent_type: ParentType;
  developer_id: string;
  start_value: number;
  target_value: number;
  score: number;
  state: DefinitionState;
}

/** questOf's one row: the user and the parent known or not, and the quest's definition columns (null when none). */
interface QuestLookupRow extends Omit<QuestDefinitionRow, 'id'> {
  user_known: 0 | 1;
  parent_known: 0 | 1;
  id: number | null;
}

/** What a request naming a user's quest finds: each of the three it names, in the order it answers 404 for them. */
export interface QuestLookup {
  userKnown: boolean;
  parentKnown: boolean;
  quest: QuestDefinition | undefined;
}

/** A user's progress alone, as a change reads it (the row's id to update it by). */
interface ProgressRow {
  id: number;
  current_value: number;
  state: UserAchievementState;
  started_on: number;
  completed_on: number | null;
  updated_on: number;
}

interface UserAchievementRow {
  id: number;
  uid: string;
  achievement_id: number;
  parent_id: string;
  parent_type: ParentType;
  current_value: number;
  percent_complete: number;
  state: UserAchievementState;
  started_on: number;
  completed_on: number | null;
  updated_on: number;
  developer_id: string;
  name: string;
  start_value: number;
  target_value: number;
}

const DEFINITION_COLUMNS = `
  a.id, a.parent_id, g.type AS parent_type, a.developer_id, a.name, a.description, a.admin_description,
  a.icon, a.start_value, a.target_value, a.score, a.state, a.tags, a.created_on, a.updated_on,
  (SELECT count(*) FROM user_achievements c WHERE c.achievement_id = a.id AND c.state = 'Completed') AS completion_count`;

const USER_ACHIEVEMENT_COLUMNS = `
  ua.id, ua.uid, ua.achievement_id, a.parent_id, g.type AS parent_type, ua.current_value,
  percent_complete(a.start_value, a.target_value, ua.current_value, ua.state) AS percent_complete,
  ua.state, ua.started_on, ua.completed_on, ua.updated_on, a.developer_id, a.name, a.start_value, a.target_value`;

const ORDER_COLUMNS: Record<ListOrder, string> = {
  started_date: 'ua.started_on',
  completed_date: 'ua.completed_on',
  state: 'ua.state',
  parent_id: 'a.parent_id',
  percent_complete: 'percent_complete',
  name: 'a.name',
};

const COMPARATORS: Record<Comparator, string> = { '=': '=', '>': '>', '>=': '>=', '<': '<', '<=': '<=' };

/** The filters that match text: `name` and `parent` a substring in any case, `state` and `parent_id` exactly. */
const MATCH_SQL: Record<Exclude<ListFilterKind, 'percent_complete'>, string> = {
  name: 'instr(lower(a.name), lower(@match)) > 0',
  parent: 'instr(lower(g.name), lower(@match)) > 0',
  state: 'ua.state = @match',
  parent_id: 'a.parent_id = @match',
};

function parseTags(json: string): Record<string, string> {
  try {
    const value: unknown = JSON.parse(json);
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
    }
  } catch {
    // A hand-edited database: show no tags rather than fail.
  }
  return {};
}

const toDefinition = (r: DefinitionRow): DefinitionRecord => ({
  id: r.id,
  parentId: r.parent_id,
  parentType: r.parent_type,
  developerId: r.developer_id,
  name: r.name,
  description: r.description,
  adminDescription: r.admin_description,
  icon: r.icon,
  startValue: r.start_value,
  targetValue: r.target_value,
  score: r.score,
  state: r.state,
  tags: parseTags(r.tags),
  createdOn: r.created_on,
  updatedOn: r.updated_on,
  completionCount: r.completion_count,
});

const toQuest = (r: QuestDefinitionRow): QuestDefinition => ({
  id: r.id,
  parentId: r.parent_id,
  parentType: r.parent_type,
  developerId: r.developer_id,
  startValue: r.start_value,
  targetValue: r.target_value,
  score: r.score,
  state: r.state,
});

const toUserAchievement = (r: UserAchievementRow): UserAchievementRecord => ({
  id: r.id,
  uid: r.uid,
  achievementId: r.achievement_id,
  parentId: r.parent_id,
  parentType: r.parent_type,
  currentValue: r.current_value,
  percentComplete: r.percent_complete,
  state: r.state,
  startedOn: r.started_on,
  completedOn: r.completed_on,
  updatedOn: r.updated_on,
  developerId: r.developer_id,
  name: r.name,
  startValue: r.start_value,
  targetValue: r.target_value,
});

export function achievementsRepository(db: Database) {
  // One definition of percent_complete for SQL (filter, order) and for replies.
  db.function(
    'percent_complete',
    { deterministic: true },
    (start: unknown, target: unknown, current: unknown, state: unknown) =>
      percentComplete(
        { startValue: Number(start), targetValue: Number(target) },
        Number(current),
        state as UserAchievementState,
      ),
  );

  const definitionsOf = db.prepare<[string, ParentType], DefinitionRow>(
    `SELECT ${DEFINITION_COLUMNS} FROM achievements a JOIN games g ON g.id = a.parent_id
      WHERE a.parent_id = ? AND g.type = ? AND a.state = 'Active' ORDER BY a.id`,
  );
  const startedOf = db.prepare<[string, number], UserAchievementRow>(
    `SELECT ${USER_ACHIEVEMENT_COLUMNS}
       FROM user_achievements ua JOIN achievements a ON a.id = ua.achievement_id JOIN games g ON g.id = a.parent_id
      WHERE ua.uid = ? AND a.state = 'Active' ORDER BY a.parent_id, a.id LIMIT ?`,
  );
  const definitionById = db.prepare<[number], DefinitionRow>(
    `SELECT ${DEFINITION_COLUMNS} FROM achievements a JOIN games g ON g.id = a.parent_id WHERE a.id = ?`,
  );
  const definitionByDeveloperId = db.prepare<[string, ParentType, string], DefinitionRow>(
    `SELECT ${DEFINITION_COLUMNS} FROM achievements a JOIN games g ON g.id = a.parent_id
      WHERE a.parent_id = ? AND g.type = ? AND a.developer_id = ?`,
  );
  const insertDefinition = db.prepare(
    `INSERT OR IGNORE INTO achievements (parent_id, developer_id, name, description, admin_description, icon,
       start_value, target_value, score, state, tags, created_on, updated_on)
     VALUES (@parentId, @developerId, @name, @description, @adminDescription, @icon,
       @startValue, @targetValue, @score, @state, @tags, @createdOn, @updatedOn)`,
  );
  const questByDeveloperId = db.prepare<[string, ParentType, string], QuestDefinitionRow>(
    `SELECT a.id, a.parent_id, g.type AS parent_type, a.developer_id, a.start_value, a.target_value, a.score, a.state
       FROM achievements a JOIN games g ON g.id = a.parent_id
      WHERE a.parent_id = ? AND g.type = ? AND a.developer_id = ?`,
  );
  // The user, the parent and the quest in one statement: a change of a quest looks up all three.
  const questOf = db.prepare<[string, ParentType, string, string], QuestLookupRow>(
    `SELECT EXISTS (SELECT 1 FROM users WHERE uid = ?) AS user_known, g.id IS NOT NULL AS parent_known,
            a.id, a.parent_id, g.type AS parent_type, a.developer_id, a.start_value, a.target_value, a.score, a.state
       FROM (SELECT 1) LEFT JOIN games g ON g.type = ? AND g.id = ?
       LEFT JOIN achievements a ON a.parent_id = g.id AND a.developer_id = ?`,
  );
  const definitionId = db.prepare<[string, string], { id: number }>(
    'SELECT id FROM achievements WHERE parent_id = ? AND developer_id = ?',
  );
  const userAchievement = db.prepare<[string, number], UserAchievementRow>(
    `SELECT ${USER_ACHIEVEMENT_COLUMNS}
       FROM user_achievements ua JOIN achievements a ON a.id = ua.achievement_id JOIN games g ON g.id = a.parent_id
      WHERE ua.uid = ? AND ua.achievement_id = ?`,
  );
  const upsertProgress = db.prepare(
    `INSERT INTO user_achievements (uid, achievement_id, current_value, state, started_on, completed_on, updated_on)
     VALUES (@uid, @achievementId, @currentValue, @state, @startedOn, @completedOn, @updatedOn)
     ON CONFLICT (uid, achievement_id) DO UPDATE SET
       current_value = excluded.current_value, state = excluded.state, started_on = excluded.started_on,
       completed_on = excluded.completed_on, updated_on = excluded.updated_on`,
  );
  // A change's own statements: its read with no join and no percent_complete call into JS, its write by
  // row id (or one insert), parameters by position.
  const progressOf = db.prepare<[string, number], ProgressRow>(
    `SELECT id, current_value, state, started_on, completed_on, updated_on
       FROM user_achievements WHERE uid = ? AND achievement_id = ?`,
  );
  const insertProgress = db.prepare<[string, number, number, UserAchievementState, number, number | null, number]>(
    `INSERT INTO user_achievements (uid, achievement_id, current_value, state, started_on, completed_on, updated_on)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const updateProgress = db.prepare<[number, UserAchievementState, number, number | null, number, number]>(
    `UPDATE user_achievements SET current_value = ?, state = ?, started_on = ?, completed_on = ?, updated_on = ?
      WHERE id = ?`,
  );
  const deleteProgress = db.prepare('DELETE FROM user_achievements WHERE uid = ? AND achievement_id = ?');

  /** The fixed fragment of a filter: its value is bound as @match (@value for a percentage). */
  const filterSql = (f: ListFilter): string =>
    f.kind === 'percent_complete'
      ? `percent_complete(a.start_value, a.target_value, ua.current_value, ua.state) ${COMPARATORS[f.comparator]} @value`
      : MATCH_SQL[f.kind];

  const listStatements = new Map<string, Statement<Record<string, unknown>, UserAchievementRow>>();
  function listStatement(q: ListQuery): Statement<Record<string, unknown>, UserAchievementRow> {
    // Built only from fixed fragments chosen by whitelisted values; user input is always bound.
    const where = ['a.parent_id = @parentId', 'g.type = @parentType', "a.state = 'Active'"];
    if (q.developerId !== undefined) where.push('a.developer_id = @developerId');
    if (q.filter) where.push(filterSql(q.filter));
    const direction = q.sort === 'asc' ? 'ASC' : 'DESC';
    // Only started quests (a record exists). A quest not completed (completed_on null, sent as
    // the zero date) sorts after the completed ones in either direction, as "not completed".
    const sql = `SELECT ${USER_ACHIEVEMENT_COLUMNS}
       FROM user_achievements ua JOIN achievements a ON a.id = ua.achievement_id JOIN games g ON g.id = a.parent_id
      WHERE ua.uid = @uid AND ${where.join(' AND ')}
      ORDER BY ${ORDER_COLUMNS[q.order]} ${direction} NULLS LAST, ua.id ${direction} NULLS LAST, a.id
      LIMIT @limit OFFSET @offset`;
    let stmt = listStatements.get(sql);
    if (!stmt) {
      stmt = db.prepare<Record<string, unknown>, UserAchievementRow>(sql);
      listStatements.set(sql, stmt);
    }
    return stmt;
  }

  function find(uid: string, achievementId: number): UserAchievementRecord | undefined {
    const row = userAchievement.get(uid, achievementId);
    return row && toUserAchievement(row);
  }

  /** One change: a read, then one write or none. Atomic only inside a write transaction (see change). */
  function applyChange(
    uid: string,
    def: QuestDefinition,
    what: ProgressChange,
    now: number,
  ): ProgressResult | 'revoked' {
    const row = progressOf.get(uid, def.id);
    const current: Progress | undefined = row && {
      currentValue: row.current_value,
      state: row.state,
      startedOn: row.started_on,
      completedOn: row.completed_on,
      updatedOn: row.updated_on,
    };
    let next: Progress | null;
    try {
      next = nextProgress(def, current, what, now);
    } catch (error) {
      if (error instanceof RevokedQuest) return 'revoked';
      throw error;
    }
    if (next && row)
      updateProgress.run(next.currentValue, next.state, next.startedOn, next.completedOn, next.updatedOn, row.id);
    else if (next)
      insertProgress.run(uid, def.id, next.currentValue, next.state, next.startedOn, next.completedOn, next.updatedOn);
    // A change always leaves a record (a reset creates one), or found one that it left alone.
    const after = (next ?? current)!;
    const alreadyCompleted = current?.state === 'Completed';
    return {
      state: after.state,
      currentValue: after.currentValue,
      percentComplete: percentComplete(def, after.currentValue, after.state),
      developerId: def.developerId,
      scoreAwarded: !alreadyCompleted && after.state === 'Completed' ? def.score : 0,
      alreadyCompleted,
      completedOn: after.completedOn,
    };
  }
  const change = db.transaction(applyChange);

  const remove = db.transaction((uid: string, achievementId: number): UserAchievementRecord | undefined => {
    const before = find(uid, achievementId);
    if (before) deleteProgress.run(uid, achievementId);
    return before;
  });

  return {
    /** Active definitions of a parent, ordered by id. */
    definitionsOf(parentType: ParentType, parentId: string): DefinitionRecord[] {
      return definitionsOf.all(parentId, parentType).map(toDefinition);
    },

    definitionById(id: number): DefinitionRecord | undefined {
      const row = definitionById.get(id);
      return row && toDefinition(row);
    },

    definitionByDeveloperId(
      parentType: ParentType,
      parentId: string,
      developerId: string,
    ): DefinitionRecord | undefined {
      const row = definitionByDeveloperId.get(parentId, parentType, developerId);
      return row && toDefinition(row);
    },

    /** As definitionByDeveloperId, with only what a change of a user's quest needs. */
    questByDeveloperId(parentType: ParentType, parentId: string, developerId: string): QuestDefinition | undefined {
      const row = questByDeveloperId.get(parentId, parentType, developerId);
      return row && toQuest(row);
    },

    /** The user (by uid), the parent (as findParent) and the quest (as questByDeveloperId) a request names. */
    questOf(uid: string, parentType: ParentType, parentId: string, developerId: string): QuestLookup {
      const row = questOf.get(uid, parentType, parentId, developerId)!;
      return {
        userKnown: row.user_known === 1,
        parentKnown: row.parent_known === 1,
        quest: row.id === null ? undefined : toQuest({ ...row, id: row.id }),
      };
    },

    /** Inserts unless (parent, developer_id) exists; returns the definition's id. */
    insertDefinition(def: NewDefinition): number {
      insertDefinition.run({ ...def, tags: JSON.stringify(def.tags) });
      const row = definitionId.get(def.parentId, def.developerId);
      if (!row) throw new Error(`achievement ${def.developerId} was not stored`);
      return row.id;
    },

    find,

    /** The user's started quests of every game (Active achievements), by game and definition order. */
    startedOf(uid: string, limit: number): ListedAchievement[] {
      return startedOf.all(uid, limit).map(toUserAchievement);
    },

    /** The user's started quests among the parent's Active achievements (a record exists). */
    list(q: ListQuery): ListedAchievement[] {
      const params: Record<string, unknown> = {
        uid: q.uid,
        parentId: q.parentId,
        parentType: q.parentType,
        limit: q.limit,
        offset: q.offset,
      };
      if (q.developerId !== undefined) params.developerId = q.developerId;
      if (q.filter?.kind === 'percent_complete') params.value = q.filter.value;
      else if (q.filter) params.match = q.filter.match;
      return listStatement(q).all(params).map(toUserAchievement);
    },

    /**
     * Applies one change in one write transaction, so concurrent changes never lose an update:
     * the caller's (the server's request runs in one), else its own immediate one; 'revoked'
     * (nothing written) when the user's quest is Revoked. No savepoint inside the caller's: the
     * change writes one statement, after every check, and an error rolls the caller's back.
     */
    change(uid: string, def: QuestDefinition, what: ProgressChange, now: number): ProgressResult | 'revoked' {
      return db.inTransaction ? applyChange(uid, def, what, now) : change.immediate(uid, def, what, now);
    },

    /** Deletes the user's progress; returns it as it was, or undefined when there was none. */
    remove(uid: string, achievementId: number): UserAchievementRecord | undefined {
      return remove.immediate(uid, achievementId);
    },

    /** Seeding: stores progress as given. */
    setProgress(uid: string, achievementId: number, progress: Progress): void {
      upsertProgress.run({ uid, achievementId, ...progress });
    },
  };
}

export type AchievementsRepository = ReturnType<typeof achievementsRepository>;
