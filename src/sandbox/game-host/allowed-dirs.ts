/**
 * Which folders a game may be served from. At start the user names them (`--game-dir`, and
 * `--allow-game-dir` for more); over HTTP (`PUT /_sandbox/game-sources`) a folder may be set only
 * inside one of them, so a request, from whatever page or program, can never widen what the
 * sandbox serves. Never allowed at all: the file system's root, a home folder (or a folder
 * holding one), and a folder that is, holds or lies inside udcli's own config or data folder
 * (its signing secrets, its database). Folders are compared by their real paths, so a symlink
 * does not lead around the rule.
 */
import { realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, parse, sep } from 'node:path';
import { GameSourceError } from './sources.js';

export interface DirRules {
  /** The folders given at start; anything inside them may be set later. */
  allowed: readonly string[];
  /** udcli's own folders (config, data): never served, nor anything holding them. */
  own: readonly string[];
  /** The user's home folder (default: the OS's). */
  home?: string;
}

export interface AllowedDirs {
  /** The allowed roots as given. */
  readonly roots: readonly string[];
  /**
   * `dir` checked for a PUT: absolute, an existing folder, inside an allowed root, not forbidden; its path as given.
   */
  check(dir: string): string;
}

const inside = (path: string, root: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Why `dir` may never be a game folder, or null. `dir` is absolute. */
export function forbiddenDirProblem(dir: string, rules: Pick<DirRules, 'own' | 'home'>): string | null {
  const path = real(dir);
  if (path === parse(path).root) return 'it is the root of the file system';
  const home = real(rules.home ?? homedir());
  if (inside(home, path)) return path === home ? 'it is your home folder' : 'it holds your home folder';
  // Beside the user's home: another user's home folder (/home/bob, /Users/bob).
  if (dirname(path) === dirname(home) && dirname(home) !== parse(home).root) return 'it is a home folder';
  for (const own of rules.own) {
    const ownPath = real(own);
    if (path === ownPath) return `it is udcli's own folder ${own}`;
    if (inside(path, ownPath)) return `it is inside udcli's own folder ${own}`;
    if (inside(ownPath, path)) return `it holds udcli's own folder ${own}`;
  }
  return null;
}

function existingFolder(dir: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    throw new GameSourceError(400, `invalid parameter: dir (${JSON.stringify(dir)} does not exist)`);
  }
  if (!isDir) throw new GameSourceError(400, `invalid parameter: dir (${JSON.stringify(dir)} is not a directory)`);
}

export function createAllowedDirs(rules: DirRules): AllowedDirs {
  const roots = rules.allowed.map((dir) => ({ dir, real: real(dir) }));
  return {
    roots: roots.map((r) => r.dir),
    check(dir) {
      if (dir === '' || dir.length > 4096 || dir.includes('\0'))
        throw new GameSourceError(400, 'invalid parameter: dir (not a path)');
      if (!isAbsolute(dir))
        throw new GameSourceError(400, `invalid parameter: dir (${JSON.stringify(dir)} is not an absolute path)`);
      existingFolder(dir);
      const problem = forbiddenDirProblem(dir, rules);
      if (problem !== null)
        throw new GameSourceError(403, `forbidden: dir ${JSON.stringify(dir)} cannot be served: ${problem}`);
      const path = real(dir);
      if (!roots.some((root) => inside(path, root.real))) {
        const named = roots.length === 0 ? 'none was given' : roots.map((r) => JSON.stringify(r.dir)).join(', ');
        throw new GameSourceError(
          403,
          `forbidden: dir ${JSON.stringify(dir)} is not inside a folder allowed when the sandbox started (--game-dir or --allow-game-dir; ${named})`,
        );
      }
      return dir;
    },
  };
}
