/** The payload schemas, declared once in the domain (src/domain/payloads.ts). */
export * from '../../domain/payloads.js';
