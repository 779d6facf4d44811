/** All repositories of one connection; each prepares its statements once. */
import type { Database } from 'better-sqlite3';
import { achievementsRepository, type AchievementsRepository } from './achievements.js';
import { authRepository, type AuthRepository } from './auth.js';
import { gamesRepository, type GamesRepository } from './games.js';
import { productsRepository, type ProductsRepository } from './products.js';
import { savesRepository, type SavesRepository } from './saves.js';
import { usedSignaturesRepository, type UsedSignaturesRepository } from './used-signatures.js';
import { usersRepository, type UsersRepository } from './users.js';

export interface Repositories {
  games: GamesRepository;
  users: UsersRepository;
  achievements: AchievementsRepository;
  products: ProductsRepository;
  auth: AuthRepository;
  saves: SavesRepository;
  usedSignatures: UsedSignaturesRepository;
}

export function createRepositories(db: Database): Repositories {
  return {
    games: gamesRepository(db),
    users: usersRepository(db),
    achievements: achievementsRepository(db),
    products: productsRepository(db),
    auth: authRepository(db),
    saves: savesRepository(db),
    usedSignatures: usedSignaturesRepository(db),
  };
}
