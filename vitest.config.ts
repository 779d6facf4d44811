import { relative } from 'node:path';
import { statSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that spawn the built binary, servers or benches: the long ones, small as some are. */
const HEAVY = /\/test\/(e2e|bench)\//;

/**
 * Longest first, so that no long file starts last and runs alone at the end. With a duration
 * for every file from an earlier run (vitest's results cache), that order; on a clean clone
 * (CI) the spawning files first, each group largest first.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = (spec: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`) !==
      undefined;
    if (files.every(known)) return super.sort(files);
    const weight = (spec: TestSpecification) => (HEAVY.test(spec.moduleId) ? 1e9 : 0) + statSync(spec.moduleId).size;
    return [...files].sort((a, b) => weight(b) - weight(a));
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every temporary file of the run under one private folder, removed at its end (test/run-tmpdir.ts).
    globalSetup: ['test/run-tmpdir.ts'],
    // End-to-end tests spawn the built binary and real servers, two files at once on 2 cores; on
    // a machine busy with other work some took 27 s. A passing test never waits for this limit.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Each worker process runs file after file with the modules it has already loaded, instead of
    // a fresh process importing vitest, the sources and their packages again for every file: that
    // import was a third of the unit tests' CPU. Safe while no test file replaces a module
    // (vi.mock), leaves the environment, the working directory or timers changed, or counts on a
    // module's first load in its own process (the start-up tests trace a child process instead).
    isolate: false,
    // vitest's default is one worker fewer than the cores: on 2 cores, one file at a time, with one
    // core mostly idle. Mostly CPU-bound (child processes, browsers), but a quarter of the time a
    // worker waits (held replies, rates, a child's first line): three files at once on 2 cores
    // took 143 s where two took 159 s here (both with isolate: false; before it, three were slower).
    maxWorkers: 3,
    sequence: { sequencer: LongestFirst },
  },
});
