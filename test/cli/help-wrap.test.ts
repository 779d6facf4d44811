/** The help layout's own rules (src/cli/help-wrap.ts), on lines a command's help could hold. */
import { describe, expect, it } from 'vitest';
import { formatHelpItem, wrapHelpText, wrapWords } from '../../src/cli/help-wrap.js';

const widest = (text: string) => Math.max(...text.split('\n').map((l) => l.length));

describe('help wrapping', () => {
  it('breaks at spaces only; a word longer than the line stays whole', () => {
    expect(wrapWords("List a game's achievement definitions", 20)).toEqual([
      "List a game's",
      'achievement',
      'definitions',
    ]);
    expect(wrapWords('see users/01e528d59829836fd23b09085b56edab.json now', 20)).toEqual([
      'see',
      'users/01e528d59829836fd23b09085b56edab.json',
      'now',
    ]);
  });

  it('an item whose term is wider than its column gets a line of its own, the description under it', () => {
    const text = formatHelpItem(
      'set [options] <user> <developer_id> <progress>',
      46,
      "Set a user's total progress: 0..1 or a percentage",
      60,
    );
    const [term, ...rest] = text.split('\n');
    expect(term).toBe('  set [options] <user> <developer_id> <progress>');
    expect(rest.every((l) => /^ {28}\S/.test(l))).toBe(true);
    expect(widest(text)).toBeLessThanOrEqual(60);
  });

  it('an item that fits keeps its description beside it, continuation lines under the description', () => {
    expect(formatHelpItem('-h, --help', 10, 'show help for this command and every one of its options', 40)).toBe(
      ['  -h, --help  show help for this command', '              and every one of its', '              options'].join(
        '\n',
      ),
    );
  });

  it('prose is reflowed as a paragraph; an example command wraps under itself', () => {
    const text = wrapHelpText(
      [
        'The reply body is printed as received, also for errors (the exit code',
        'still tells what happened).',
        '',
        'Examples:',
        '  $ udcli api GET users/demo_player.json -f username=1 --raw',
      ].join('\n'),
      40,
    );
    expect(widest(text)).toBeLessThanOrEqual(40);
    expect(text.split('\n').slice(0, 3)).toEqual([
      'The reply body is printed as received,',
      'also for errors (the exit code still',
      'tells what happened).',
    ]);
    expect(text).toContain('\n  $ udcli api GET users/demo_player.json\n      -f username=1 --raw');
  });
});
