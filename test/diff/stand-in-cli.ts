/** A test file's production stand-in (platform-stand-in.ts), and udcli in-process pointed at it. */
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from '../output/fake-io.js';
import { fileScratch } from '../scratch.js';
import { STAND_IN, startStandIn, type StandIn } from './platform-stand-in.js';

export interface FileStandIn {
  /** The file's temporary folder: udcli's config and data dirs are in it. */
  dir: string;
  /** The stand-in, started before the file's tests and stopped after them. */
  standIn(): StandIn;
  /** `main` in-process against the stand-in, its key and game, no colour. */
  run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
}

export function fileStandIn(prefix: string): FileStandIn {
  let standIn: StandIn | undefined;
  const dir = fileScratch(prefix);
  beforeAll(async () => {
    standIn = await startStandIn();
  });
  afterAll(async () => standIn?.close());
  const started = (): StandIn => {
    if (standIn === undefined) throw new Error('fileStandIn(): the stand-in is read before its beforeAll ran');
    return standIn;
  };
  return {
    dir,
    standIn: started,
    async run(args) {
      const f = fakeIO({
        env: {
          NO_COLOR: '1',
          UDCLI_CONFIG_DIR: join(dir, 'config'),
          UDCLI_DATA_DIR: join(dir, 'data'),
          UDCLI_BASE_URL: started().url,
          UDCLI_API_KEY: STAND_IN.apiKey,
          UDCLI_GAME_ID: STAND_IN.gameId,
        },
      });
      const code = await main(args, f.io);
      return { code, stdout: f.stdout(), stderr: f.stderr() };
    },
  };
}
