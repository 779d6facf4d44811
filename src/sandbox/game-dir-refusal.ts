/**
 * The refusal of a game folder (game-host/allowed-dirs.ts says why), shared by the CLI's start and the server: light,
 * for the CLI's start-up.
 */
import { UsageError } from '../errors.js';

/**
 * A folder no game may be served from, refused with the rule that refuses it and the way on: the
 * rule holds for every flag (it guards the user's files and udcli's secrets), so the way on is a
 * folder of the game's own, given to the flag that allows folders.
 */
export function forbiddenGameDirError(dir: string, problem: string): UsageError {
  return new UsageError(`cannot serve games from ${dir}: ${problem}`, {
    hint:
      "the rule: a game is never served from the file system's root, a home folder (yours or another user's) or a folder holding one, nor from udcli's own config or data folder; " +
      "pass your game's own folder (its build output) to --game-dir DIR, or to --allow-game-dir DIR for folders the dashboard may set later, e.g. --game-dir ~/mygame/dist",
  });
}
