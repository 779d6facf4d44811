/**
 * The user-achievement state machine over HTTP: increment, cap, Completed once, progress, reset,
 * delete, in the platform's words (states In Progress/Completed, completed_date the zero date
 * until completed, percent_complete an integer). The platform's own points, one test each, are
 * in platform-pages.test.ts.
 */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { uidForUsername } from '../../src/domain/ids.js';
import type { AchievementDefinition, AchievementUpdate, UserAchievement } from '../../src/domain/types.js';
import { formatDateTime } from '../../src/sandbox/time.js';
import { completedReply, inProgressReply, ZERO_DATE } from './helpers/achievement-replies.js';
import { api, signedApi, type TestSandbox } from './helpers/sandbox.js';

const USER = uidForUsername('player_0042');
const PATH = `/achievements/user/${USER}.json`;
const game: Array<[string, string]> = [
  ['type', 'Game'],
  ['pid', '1001'],
];

let sb: TestSandbox;
beforeAll(async ({ newSb }) => {
  sb = await newSb({ startMs: Date.UTC(2025, 0, 15, 12, 0, 0) });
});

const put = (developerId: string, change: [string, string]) =>
  signedApi<AchievementUpdate>(sb, 'PUT', PATH, [...game, ['developer_id', developerId], change]);
const record = async (developerId: string) =>
  (await api<UserAchievement[]>(sb.url, 'GET', PATH, [...game, ['developer_id', developerId]])).body.payload![0];
const completions = async (developerId: string) =>
  (await api<AchievementDefinition[]>(sb.url, 'GET', '/achievements/1001.json', [['developer_id', developerId]])).body
    .payload![0]!.completion_count;

const SANDBOX_START = '2025-01-15 12:00:00';

/** The stored record is In Progress at `value`, with the zero completed_date (and, when given, that started_date). */
async function expectStoredInProgress(developerId: string, value: number, startedDate?: string) {
  expect(await record(developerId)).toMatchObject({
    state: 'In Progress',
    current_value: value,
    completed_date: ZERO_DATE,
    ...(startedDate === undefined ? {} : { started_date: startedDate }),
  });
}

describe('increment', () => {
  it('creates the record at start_value, adds, and stays In Progress below the target', async () => {
    expect(await record('DAILY_STREAK_7')).toBeUndefined();
    const r = await put('DAILY_STREAK_7', ['increment', '3']);
    expect(r.body.payload).toEqual(inProgressReply('DAILY_STREAK_7', 3, 42, false));
    await expectStoredInProgress('DAILY_STREAK_7', 3, SANDBOX_START);
  });

  it('reaching the target sets Completed and completed_date (UTC), and counts a completion', async () => {
    const before = await completions('DAILY_STREAK_7');
    sb.clock.advance(3600);
    const r = await put('DAILY_STREAK_7', ['increment', '4']);
    // The request that completes it is awarded the definition's score (DAILY_STREAK_7: 15).
    expect(r.body.payload).toEqual(completedReply('DAILY_STREAK_7', 7, 15, false, '2025-01-15 13:00:00'));
    const stored = await record('DAILY_STREAK_7');
    expect(stored).toMatchObject({
      state: 'Completed',
      completed_date: '2025-01-15 13:00:00',
      started_date: SANDBOX_START,
    });
    expect(await completions('DAILY_STREAK_7')).toBe(before + 1);
  });

  it('once Completed, further increments change nothing: the value stays capped and completed_date is set once', async () => {
    sb.clock.advance(3600);
    const r = await put('DAILY_STREAK_7', ['increment', '5']);
    expect(r.body.payload).toEqual(completedReply('DAILY_STREAK_7', 7, 0, true, '2025-01-15 13:00:00'));
    const stored = await record('DAILY_STREAK_7');
    expect(stored?.completed_date).toBe('2025-01-15 13:00:00');
    expect(stored?.updated_date).toBe('2025-01-15 13:00:00');
  });

  it('an increment past the target is capped at the target', async () => {
    const r = await put('COLLECT_1000_GEMS', ['increment', '1500']);
    expect(r.body.payload).toMatchObject({ state: 'Completed', current_value: 1000, percent_complete: 100 });
  });
});

describe('progress', () => {
  it('sets start + round(P * (target - start)) (LEVEL_10 runs from 1 to 10)', async () => {
    expect((await put('LEVEL_10', ['progress', '0.5'])).body.payload).toMatchObject({
      state: 'In Progress',
      current_value: 6,
      percent_complete: 55,
    });
    expect((await put('LEVEL_10', ['progress', '0.25'])).body.payload).toMatchObject({
      current_value: 3,
      percent_complete: 22,
    });
    expect((await put('LEVEL_10', ['progress', '0'])).body.payload).toMatchObject({
      current_value: 1,
      percent_complete: 0,
    });
    // 1 + round(0.99 * 9) = 1 + round(8.91) = 10: the target, so it completes.
    expect((await put('LEVEL_10', ['progress', '.99'])).body.payload).toMatchObject({
      state: 'Completed',
      current_value: 10,
      percent_complete: 100,
    });
  });

  it('progress 1.0 completes with percent 100 and current_value = target (spec 3)', async () => {
    const r = await put('SPEED RUN/100%', ['progress', '1.0']);
    expect(r.body.payload).toMatchObject({
      state: 'Completed',
      current_value: 100,
      percent_complete: 100,
      developer_id: 'SPEED RUN/100%',
      score_awarded: 40,
    });
  });
});

describe('reset', () => {
  it('goes back to start_value, In Progress, completed_date the zero date', async () => {
    const r = await put('DAILY_STREAK_7', ['reset', '1']);
    expect(r.body.payload).toEqual(inProgressReply('DAILY_STREAK_7', 0, 0, true));
    await expectStoredInProgress('DAILY_STREAK_7', 0, SANDBOX_START);
  });

  it('after a reset the achievement can be completed again, with a new completed_date', async () => {
    sb.clock.advance(60);
    const r = await put('DAILY_STREAK_7', ['increment', '7']);
    expect(r.body.payload).toMatchObject({ state: 'Completed', current_value: 7 });
    expect((await record('DAILY_STREAK_7'))?.completed_date).toBe(formatDateTime(Math.floor(sb.clock.ms / 1000)));
  });

  it('resetting an achievement never started starts it, like a submit: In Progress at start_value', async () => {
    expect(await record('SECRET_ROOM')).toBeUndefined();
    const r = await put('SECRET_ROOM', ['reset', 'true']);
    expect(r.status).toBe(200);
    expect(r.body.payload).toEqual(inProgressReply('SECRET_ROOM', 0, 0, false));
    await expectStoredInProgress('SECRET_ROOM', 0);
  });
});

describe('delete', () => {
  it('answers the record as it was and removes it; the completion no longer counts', async () => {
    const before = await completions('COLLECT_1000_GEMS');
    const was = await record('COLLECT_1000_GEMS');
    const r = await api<UserAchievement>(sb.url, 'DELETE', PATH, [...game, ['developer_id', 'COLLECT_1000_GEMS']]);
    expect(r.body.payload).toEqual(was);
    expect(await record('COLLECT_1000_GEMS')).toBeUndefined();
    expect(await completions('COLLECT_1000_GEMS')).toBe(before - 1);
  });

  it('the Inactive achievement cannot be changed (hidden: 404)', async () => {
    const r = await put('BETA_TESTER', ['increment', '1']);
    expect(r.status).toBe(404);
  });
});
