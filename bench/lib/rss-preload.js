// Preloaded with `node --import` into a measured child: at exit, appends the process's peak RSS
// (KB, from getrusage) to the file named by BENCH_RSS_FILE. Works without GNU time.
import { appendFileSync } from 'node:fs';

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    try {
      appendFileSync(file, `${process.resourceUsage().maxRSS}\n`);
    } catch {
      // the bench reports a missing value
    }
  });
}
