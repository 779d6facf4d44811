/** The request parameters, declared in the domain's endpoint table (src/domain/parameters.ts). */
export * from '../../domain/parameters.js';
