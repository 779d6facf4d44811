/**
 * How big a data file may be, counted after YAML aliases are expanded (issue 21, 4): 159 KB of
 * YAML whose one friends list is aliased by 900 users is 4.5 million friendships once loaded.
 * Every bound is checked on the parsed value before the schema check or anything is written,
 * and the walk stops at the first bound crossed, so checking costs at most the bound.
 */
import type { DataPath, Fail } from './validate.js';

export const DATA_LIMITS = {
  /** The file itself, read only up to this (a regular file only). */
  fileBytes: 64 * 1024 * 1024,
  /** YAML alias uses (the yaml package's own count, weighted by the aliases inside each anchor). */
  aliases: 1000,
  /** Twice the largest file the benchmarks load (100,000 users, 1,000,000 friendships). */
  users: 200_000,
  /** Names in all users' friends lists together (each is a friendship both ways). */
  friendships: 2_000_000,
  /** Every key of an object and every item of a list, after aliases are expanded. */
  values: 8_000_000,
  /** Objects and lists inside one another (a valid file needs 6). */
  depth: 32,
} as const;

const mib = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;
export const FILE_TOO_LARGE = `larger than ${mib(DATA_LIMITS.fileBytes)} (the limit of a data file)`;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Fails at the first bound the parsed file crosses, naming it and where. */
export function checkDataSize(raw: unknown, fail: Fail): void {
  const users = isObject(raw) ? raw.users : undefined;
  if (Array.isArray(users)) {
    if (users.length > DATA_LIMITS.users)
      fail(['users', DATA_LIMITS.users], `more than ${DATA_LIMITS.users} users (the limit of a data file)`);
    let friendships = 0;
    users.forEach((u, i) => {
      const friends = isObject(u) ? u.friends : undefined;
      if (!Array.isArray(friends)) return;
      friendships += friends.length;
      if (friendships > DATA_LIMITS.friendships) {
        fail(
          ['users', i, 'friends'],
          `more than ${DATA_LIMITS.friendships} friendships in the file, counted after YAML aliases are expanded (the limit of a data file)`,
        );
      }
    });
  }
  let values = 0;
  const path: DataPath = [];
  const step = (key: string | number, child: unknown): void => {
    if (++values > DATA_LIMITS.values) {
      fail(
        [...path, key],
        `more than ${DATA_LIMITS.values} keys and list items, counted after YAML aliases are expanded (the limit of a data file)`,
      );
    }
    path.push(key);
    walk(child);
    path.pop();
  };
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    if (path.length >= DATA_LIMITS.depth)
      fail([...path], `nested deeper than ${DATA_LIMITS.depth} levels (the limit of a data file)`);
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) step(i, node[i]);
    else for (const key in node) if (Object.hasOwn(node, key)) step(key, (node as Record<string, unknown>)[key]);
  };
  walk(raw);
}
