/**
 * Resuming from a journal of finished items (issue 13): peak RSS stays flat with the journal's
 * size, a big journal against one a tenth of it, every item skipped.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { udcliHere } from '../lib/in-process.js';
import { COUNTER } from '../lib/options.js';
import { median, ms, rssMB } from '../lib/stats.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['journal-resume-rss'],
  async run(ctx) {
    const { s, root, outFile, rssFile } = ctx;
    const big = s.resumeItems;
    const small = Math.round(big / 10);
    // The header udcli writes for this command on this target (a journal names both), taken from
    // a real run of it on one seeded user, so the resumes below are accepted as its own.
    const probeList = join(root, 'resume-probe.txt');
    const probeJournal = join(root, 'resume-probe.journal');
    writeFileSync(probeList, `${ctx.seeded.big.uid}\n`);
    // In a --smoke run in this process (bench/lib/in-process.js): the header is the command's, not the process's.
    const probe = ['achievements', 'inc', `@${probeList}`, COUNTER, '--journal', probeJournal];
    if (ctx.mode === 'smoke') await udcliHere(probe, ctx.udcliEnv);
    else await ctx.udcli(probe, { stdoutFile: outFile });
    const probeHeader = readFileSync(probeJournal, 'utf8').split('\n')[0];
    /** A list of `count` uids and a journal in which every one finished: a resume skips them all. */
    const finishedJournal = (/** @type {number} */ count) => {
      const list = join(root, `resume-${count}.txt`);
      const journal = join(root, `resume-${count}.journal`);
      const uid = (/** @type {number} */ i) => i.toString(16).padStart(32, '0');
      const header = { ...JSON.parse(probeHeader), created: new Date().toISOString() };
      const listOut = [];
      const journalOut = [JSON.stringify(header)];
      for (let i = 1; i <= count; i++) {
        listOut.push(uid(i));
        journalOut.push(
          JSON.stringify({ line: i, input: uid(i), uid: uid(i), status: 'ok', at: '2026-11-22T00:00:00.000Z' }),
        );
      }
      writeFileSync(list, `${listOut.join('\n')}\n`);
      writeFileSync(journal, `${journalOut.join('\n')}\n`);
      return ['achievements', 'inc', `@${list}`, COUNTER, '--journal', journal];
    };
    const bigArgs = finishedJournal(big);
    const smallArgs = finishedJournal(small);
    ctx.log(
      `journal-resume: peak RSS resuming ${big.toLocaleString('en')} finished items against ${small.toLocaleString('en')}, ${s.dataRuns} runs a side`,
    );
    const resume = (/** @type {string[]} */ argv) =>
      ctx.udcli(argv, { stdoutFile: outFile, rssFile, timeoutMs: 600_000 });
    const r = await ctx.interleaved(
      { runs: Math.max(1, s.dataRuns), warmup: 0 },
      () => resume(smallArgs),
      () => resume(bigArgs),
    );
    const skipped = readFileSync(outFile, 'utf8')
      .split('\n')
      .filter((l) => l.includes('"status":"skipped"')).length;
    ctx.report({
      id: 'journal-resume-rss',
      what: `udcli achievements inc @FILE --journal, resuming ${big.toLocaleString('en')} finished items (all skipped): peak RSS`,
      unit: 'MB',
      kind: 'memory',
      refLabel: `the same with ${small.toLocaleString('en')} finished items`,
      refSamples: rssMB(r.ref),
      udcliSamples: rssMB(r.udcli),
      target: { op: '<=', value: 1.2 },
      check: skipped === big,
      extra: { resumeMs: median(ms(r.udcli)), skipped },
    });
  },
};
