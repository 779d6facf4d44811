/** Prints the script for one shell (the same whatever commands this udcli has: it asks udcli). */
import { completionScript, type Shell } from '../../completion/index.js';
import type { Factory } from '../../../ops/factory.js';

export async function run(factory: Factory, shell: Shell): Promise<void> {
  const out = await factory.output();
  out.text(completionScript(shell));
}
