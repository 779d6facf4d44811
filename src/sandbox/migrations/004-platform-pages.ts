/**
 * Migration 4: what the platform's JavaScript pages settle (SERVICE.md: Achievements, Users). A
 * user's quest is `In Progress`, `Completed` or `Revoked`: the rows a database kept as `Started`
 * become `In Progress`, nothing else changes (a null completed_on stays null: it is sent as the
 * zero date). SQLite cannot change a CHECK in place, so the table is rebuilt with its ids, and
 * its index made again. Users gain `email` (empty when the data has none).
 */
export const version = 4;
export const name = "the platform's pages: quest states In Progress/Completed/Revoked, user email";

export const sql = `
CREATE TABLE user_achievements_v4 (
  id             INTEGER PRIMARY KEY,
  uid            TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  achievement_id INTEGER NOT NULL REFERENCES achievements (id) ON DELETE CASCADE,
  current_value  INTEGER NOT NULL,
  state          TEXT NOT NULL CHECK (state IN ('In Progress', 'Completed', 'Revoked')),
  started_on     INTEGER NOT NULL,
  completed_on   INTEGER,
  updated_on     INTEGER NOT NULL,
  UNIQUE (uid, achievement_id)
);
INSERT INTO user_achievements_v4 (id, uid, achievement_id, current_value, state, started_on, completed_on, updated_on)
  SELECT id, uid, achievement_id, current_value, CASE state WHEN 'Started' THEN 'In Progress' ELSE state END,
         started_on, completed_on, updated_on
    FROM user_achievements;
DROP TABLE user_achievements;
ALTER TABLE user_achievements_v4 RENAME TO user_achievements;
CREATE INDEX user_achievements_by_achievement ON user_achievements (achievement_id, state);

ALTER TABLE users ADD COLUMN email TEXT NOT NULL DEFAULT '';
`;
