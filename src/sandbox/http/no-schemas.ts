/**
 * The `schemaController` of the sandbox's Fastify instances. No route declares a Fastify schema:
 * the endpoint table's declarations are the sandbox's checks (http/checked-parameters.ts), with the
 * platform's own words. Fastify loads its default compilers (@fastify/ajv-compiler with Ajv,
 * fast-json-stringify) when an instance is made unless it is given its own, which cost `sandbox
 * start` about 75 ms before its first line; these are never called, and say why if a schema is
 * ever added.
 */
import type { FastifyServerOptions } from 'fastify';

function noSchemas(): never {
  throw new Error('the sandbox declares no Fastify schemas (the endpoint table checks requests): http/no-schemas.ts');
}

export const NO_SCHEMA_COMPILERS: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: { buildValidator: noSchemas, buildSerializer: noSchemas },
};
