import type { Column } from '../../output/types.js';
import type { AchievementDefinition, AchievementUpdate, UserAchievement } from '../../domain/types.js';
import { completedDateOf } from '../../domain/quests.js';
import { cellText, isoFromServiceDate } from '../args.js';

export const DEFINITION_COLUMNS: ReadonlyArray<Column<AchievementDefinition>> = [
  { key: 'id', header: 'ID', cell: (d) => cellText(d.id) },
  { key: 'developer_id', header: 'DEVELOPER ID', cell: (d) => cellText(d.developer_id) },
  { key: 'name', header: 'NAME', cell: (d) => cellText(d.name) },
  // The progress a quest starts at: `1 → 4/10 (33%)` of a quest starting at 1 is 3 of its 9 steps.
  { key: 'start_value', header: 'START', cell: (d) => cellText(d.start_value) },
  { key: 'target_value', header: 'TARGET', cell: (d) => cellText(d.target_value) },
  { key: 'score', header: 'SCORE', cell: (d) => cellText(d.score) },
  { key: 'state', header: 'STATE', cell: (d) => cellText(d.state) },
];

/**
 * `3/10 (30%)`; with the quest's start when above 0, `1 → 4/10 (33%)`: the percentage is the
 * platform's own, floor(100 × (current − start) / (target − start)) (contract.md), which reads as
 * wrong beside `4/10` until one knows the quest started at 1. Tolerant of numbers sent as strings
 * and of missing fields.
 */
export function progressText(
  a: { current_value?: unknown; target_value?: unknown; percent_complete?: unknown },
  start?: unknown,
): string {
  const current = cellText(a.current_value);
  const target = cellText(a.target_value);
  const pct = Number(a.percent_complete);
  const percent =
    a.percent_complete === undefined || a.percent_complete === null || !Number.isFinite(pct) ? '' : `${pct}%`;
  const from = Number(start);
  const ratio = `${start !== null && start !== '' && Number.isFinite(from) && from !== 0 ? `${from} → ` : ''}${target === '' ? current : `${current}/${target}`}`;
  return percent === '' ? ratio : `${ratio} (${percent})`;
}

/**
 * A user's quests as a table. `starts` (developer_id to start_value, from the definitions) may be
 * filled while the rows are read: a table's cells are made once every row is in.
 */
export function userAchievementColumns(
  starts: ReadonlyMap<string, unknown> = new Map(),
): ReadonlyArray<Column<UserAchievement>> {
  return [
    { key: 'developer_id', header: 'DEVELOPER ID', cell: (a) => cellText(a.developer_id) },
    { key: 'name', header: 'NAME', cell: (a) => cellText(a.name) },
    { key: 'percent_complete', header: 'PROGRESS', cell: (a) => progressText(a, starts.get(String(a.developer_id))) },
    { key: 'state', header: 'STATE', cell: (a) => cellText(a.state) },
    // The zero date (not completed) shows as nothing; -o json keeps the service's value.
    {
      key: 'completed_date',
      header: 'COMPLETED',
      cell: (a) => cellText(isoFromServiceDate(completedDateOf(a.completed_date) ?? '')),
    },
  ];
}

export const USER_ACHIEVEMENT_COLUMNS: ReadonlyArray<Column<UserAchievement>> = userAchievementColumns();

export const UPDATE_COLUMNS: ReadonlyArray<Column<AchievementUpdate>> = [
  { key: 'developer_id', header: 'DEVELOPER ID', cell: (u) => cellText(u.developer_id) },
  { key: 'state', header: 'STATE', cell: (u) => cellText(u.state) },
  { key: 'current_value', header: 'VALUE', cell: (u) => cellText(u.current_value) },
  {
    key: 'percent_complete',
    header: 'PERCENT',
    cell: (u) =>
      Number.isFinite(Number(u.percent_complete)) ? `${Number(u.percent_complete)}%` : cellText(u.percent_complete),
  },
];
