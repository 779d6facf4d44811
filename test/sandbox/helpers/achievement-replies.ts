/** The platform's whole reply to an achievement change (docs/PLATFORM.md), for tests that check every field. */

/** What completed_date says until an achievement is completed. */
export const ZERO_DATE = '0000-00-00 00:00:00';

/** The whole reply to a change that leaves the achievement In Progress (no score is awarded below the target). */
export const inProgressReply = (
  developer_id: string,
  current_value: number,
  percent_complete: number,
  already_completed: boolean,
) => ({
  state: 'In Progress',
  current_value,
  percent_complete,
  developer_id,
  score_awarded: 0,
  already_completed,
  completed_date: ZERO_DATE,
});

/** The whole reply to a change that leaves the achievement Completed at its target. */
export const completedReply = (
  developer_id: string,
  current_value: number,
  score_awarded: number,
  already_completed: boolean,
  completed_date: string,
) => ({
  state: 'Completed',
  current_value,
  percent_complete: 100,
  developer_id,
  score_awarded,
  already_completed,
  completed_date,
});
