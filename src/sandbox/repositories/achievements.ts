/** Achievement definitions and users' progress on them. */
import type { Database, Statement } from 'better-sqlite3';
import type { ParentType } from '../../domain/types.js';
import { nextProgress, percentComplete, type Progress, type ProgressChange, type UserAchievementState } from '../domain/achievements.js';

export type DefinitionState = 'Active' | 'Inactive';

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

/** `Not Started`: the user has no record of the achievement yet (contract: Achievements). */
export const NOT_STARTED = 'Not Started';
export type ListedState = UserAchievementState | typeof NOT_STARTED;

/** A row of the user's list: a record, or an achievement never touched (id and dates null). */
export interface ListedAchievement extends Omit<UserAchievementRecord, 'id' | 'state' | 'startedOn' | 'updatedOn'> {
  id: number | null;
  state: ListedState;
  startedOn: number | null;
  updatedOn: number | null;
}

/** The reply of a PUT: what the progress is now (also when nothing changed or nothing existed). */
export interface ProgressResult {
  state: ListedState;
  currentValue: number;
  percentComplete: number;
  developerId: string;
  /** The definition's score when this request completed it, else 0. */
  scoreAwarded: number;
  /** It was Completed before this request. */
  alreadyCompleted: boolean;
  completedOn: number | null;
}

export type ListOrder = 'started_date' | 'completed_date' | 'state' | 'parent_id' | 'percent_complete' | 'name';
export type SortDirection = 'asc' | 'desc';
export type Comparator = '=' | '>' | '>=' | '<' | '<=';
export type ListFilter =
  | { kind: 'name' | 'parent'; match: string }
  | { kind: 'state' | 'parent_id'; match: string }
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

interface DefinitionRow {
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

interface ListedRow {
  id: number | null;
  uid: string;
  achievement_id: number;
  parent_id: string;
  parent_type: ParentType;
  current_value: number;
  percent_complete: number;
  state: ListedState;
  started_on: number | null;
  completed_on: number | null;
  updated_on: number | null;
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
  percent_complete(a.start_value, a.target_value, ua.current_value) AS percent_complete,
  ua.state, ua.started_on, ua.completed_on, ua.updated_on, a.developer_id, a.name, a.start_value, a.target_value`;

/**
 * Every Active achievement of the parent with the user's progress: one never touched has no
 * record and shows start_value, 0 % and `Not Started` with null id and dates.
 */
const LISTED_COLUMNS = `
  ua.id, @uid AS uid, a.id AS achievement_id, a.parent_id, g.type AS parent_type,
  coalesce(ua.current_value, a.start_value) AS current_value,
  percent_complete(a.start_value, a.target_value, coalesce(ua.current_value, a.start_value)) AS percent_complete,
  coalesce(ua.state, '${NOT_STARTED}') AS state, ua.started_on, ua.completed_on, ua.updated_on,
  a.developer_id, a.name, a.start_value, a.target_value`;

const ORDER_COLUMNS: Record<ListOrder, string> = {
  started_date: 'ua.started_on',
  completed_date: 'ua.completed_on',
  state: 'state',
  parent_id: 'a.parent_id',
  percent_complete: 'percent_complete',
  name: 'a.name',
};

const COMPARATORS: Record<Comparator, string> = { '=': '=', '>': '>', '>=': '>=', '<': '<', '<=': '<=' };

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

const toListed = (r: ListedRow): ListedAchievement => ({
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

/** A stored record: the listed row with its id and dates present. */
const toUserAchievement = (r: UserAchievementRow): UserAchievementRecord => toListed(r) as UserAchievementRecord;

export function achievementsRepository(db: Database) {
  // One definition of percent_complete for SQL (filter, order) and for replies.
  db.function('percent_complete', { deterministic: true }, (start: unknown, target: unknown, current: unknown) =>
    percentComplete({ startValue: Number(start), targetValue: Number(target) }, Number(current)),
  );

  const definitionsOf = db.prepare<[string, ParentType], DefinitionRow>(
    `SELECT ${DEFINITION_COLUMNS} FROM achievements a JOIN games g ON g.id = a.parent_id
      WHERE a.parent_id = ? AND g.type = ? AND a.state = 'Active' ORDER BY a.id`,
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
  const deleteProgress = db.prepare('DELETE FROM user_achievements WHERE uid = ? AND achievement_id = ?');

  const listStatements = new Map<string, Statement<Record<string, unknown>, ListedRow>>();
  function listStatement(q: ListQuery): Statement<Record<string, unknown>, ListedRow> {
    // Built only from fixed fragments chosen by whitelisted values; user input is always bound.
    const where = ['a.parent_id = @parentId', 'g.type = @parentType', "a.state = 'Active'"];
    if (q.developerId !== undefined) where.push('a.developer_id = @developerId');
    switch (q.filter?.kind) {
      case 'name':
        where.push('instr(lower(a.name), lower(@match)) > 0');
        break;
      case 'parent':
        where.push('instr(lower(g.name), lower(@match)) > 0');
        break;
      case 'state':
        where.push(`coalesce(ua.state, '${NOT_STARTED}') = @match`);
        break;
      case 'parent_id':
        where.push('a.parent_id = @match');
        break;
      case 'percent_complete':
        where.push(
          `percent_complete(a.start_value, a.target_value, coalesce(ua.current_value, a.start_value)) ${COMPARATORS[q.filter.comparator]} @value`,
        );
        break;
      default:
        break;
    }
    const direction = q.sort === 'asc' ? 'ASC' : 'DESC';
    // Achievements never started (null dates) come last in either direction.
    const sql = `SELECT ${LISTED_COLUMNS}
       FROM achievements a JOIN games g ON g.id = a.parent_id
       LEFT JOIN user_achievements ua ON ua.achievement_id = a.id AND ua.uid = @uid
      WHERE ${where.join(' AND ')}
      ORDER BY ${ORDER_COLUMNS[q.order]} ${direction} NULLS LAST, ua.id ${direction} NULLS LAST, a.id
      LIMIT @limit OFFSET @offset`;
    let stmt = listStatements.get(sql);
    if (!stmt) {
      stmt = db.prepare<Record<string, unknown>, ListedRow>(sql);
      listStatements.set(sql, stmt);
    }
    return stmt;
  }

  function find(uid: string, achievementId: number): UserAchievementRecord | undefined {
    const row = userAchievement.get(uid, achievementId);
    return row && toUserAchievement(row);
  }

  const change = db.transaction((uid: string, def: DefinitionRecord, what: ProgressChange, now: number): ProgressResult => {
    const current = find(uid, def.id);
    const next = nextProgress(def, current, what, now);
    if (next) upsertProgress.run({ uid, achievementId: def.id, ...next });
    const after = next ?? current;
    const currentValue = after?.currentValue ?? def.startValue;
    const alreadyCompleted = current?.state === 'Completed';
    return {
      state: after?.state ?? NOT_STARTED,
      currentValue,
      percentComplete: percentComplete(def, currentValue),
      developerId: def.developerId,
      scoreAwarded: !alreadyCompleted && after?.state === 'Completed' ? def.score : 0,
      alreadyCompleted,
      completedOn: after?.completedOn ?? null,
    };
  });

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

    definitionByDeveloperId(parentType: ParentType, parentId: string, developerId: string): DefinitionRecord | undefined {
      const row = definitionByDeveloperId.get(parentId, parentType, developerId);
      return row && toDefinition(row);
    },

    /** Inserts unless (parent, developer_id) exists; returns the definition's id. */
    insertDefinition(def: NewDefinition): number {
      insertDefinition.run({ ...def, tags: JSON.stringify(def.tags) });
      const row = definitionId.get(def.parentId, def.developerId);
      if (!row) throw new Error(`achievement ${def.developerId} was not stored`);
      return row.id;
    },

    find,

    /** Every Active achievement of the parent with the user's progress (Not Started rows included). */
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
      return listStatement(q).all(params).map(toListed);
    },

    /** Applies one change in one (immediate) transaction, so concurrent changes never lose an update. */
    change(uid: string, def: DefinitionRecord, what: ProgressChange, now: number): ProgressResult {
      return change.immediate(uid, def, what, now);
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
