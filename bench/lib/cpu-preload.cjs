'use strict';
// Preloaded with `node --require` into a measured child: at exit, writes the process's CPU time
// (user + system, microseconds, from process.cpuUsage) to the file named by BENCH_CPU_FILE.
// CommonJS, so the measured process does not start the ES module loader for it.
const file = process.env.BENCH_CPU_FILE;
if (file) {
  process.on('exit', () => {
    const { user, system } = process.cpuUsage();
    try {
      require('node:fs').writeFileSync(file, `${user + system}\n`);
    } catch {
      // the bench reports the run as failed
    }
  });
}
