/** `udcli sandbox schema`; the handler is data.ts. */
import type { Verb } from '../../verb.js';

export const SCHEMA: Verb = {
  name: 'schema',
  description: 'Print the JSON Schema of sandbox data files (for editors and CI checks)',
  examples: ['udcli sandbox schema > sandbox-data.schema.json'],
  run: async (factory) => (await import('./data.js')).schemaCommand(factory),
};
