/** The one warning line a data file with old words earns (sandbox/data/legacy.ts), on stderr. */
import { printable } from '../../../printable.js';

export function dataWarning(stderr: { write(text: string): unknown }): (line: string) => void {
  // The line names the file and a path in it (developer ids): text from outside, escaped.
  return (line) => void stderr.write(`udcli: warning: ${printable(line)}\n`);
}
