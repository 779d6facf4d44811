/** A value kept beside each app buildApp made, for the functions that take the app and find it. */
import type { FastifyInstance } from 'fastify';

export interface PerApp<T> {
  keep(app: FastifyInstance, value: T): void;
  /** The app's value; throws, naming `asker`, for an app buildApp did not make. */
  of(app: FastifyInstance): T;
}

export function perApp<T>(asker: string): PerApp<T> {
  const values = new WeakMap<FastifyInstance, T>();
  return {
    keep: (app, value) => void values.set(app, value),
    of(app) {
      const found = values.get(app);
      if (found === undefined) throw new Error(`${asker}: not an app of buildApp`);
      return found;
    },
  };
}
