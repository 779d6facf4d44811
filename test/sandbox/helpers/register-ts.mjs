// Lets a child `node --import <this> file.ts` run the TypeScript sources (Node 20 has no type
// stripping): tests spawn real sandbox processes to SIGKILL them and to test --detach.
import { register } from 'node:module';

register('./ts-loader.mjs', import.meta.url);
