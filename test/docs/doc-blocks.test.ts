/** How the docs test reads a manual's shell blocks (doc-blocks.ts): the conventions the README states. */
import { describe, expect, it } from 'vitest';
import { readDocBlocks, tokenize } from './doc-blocks.js';

const fence = (info: string, body: string) => `text\n\n\`\`\`${info}\n${body}\n\`\`\`\n`;

describe('readDocBlocks', () => {
  it('reads commands, their shown output (#  TEXT) and plain comments (# text)', () => {
    const [block] = readDocBlocks(
      fence(
        'sh',
        [
          'udcli saves set demo_player slot1 \'{"level":3}\'   # a comment, not run',
          '#  Changed: save slot1',
          '#  …',
          '# (a remark about it, not output)',
          '#  (exit 0)',
          'npm run dev',
          '#  output of another program: not checked',
          'udcli api PUT a.json \\',
          '  -f x=1 --dry-run',
        ].join('\n'),
      ),
    );
    const steps = block!.steps;
    expect(steps.map((s) => s.kind)).toEqual(['command', 'command']);
    expect(steps[0]).toMatchObject({
      argv: ['saves', 'set', 'demo_player', 'slot1', '{"level":3}'],
      shown: ['Changed: save slot1', '…', '(exit 0)'],
    });
    expect(steps[1]).toMatchObject({
      text: 'udcli api PUT a.json  -f x=1 --dry-run',
      argv: ['api', 'PUT', 'a.json', '-f', 'x=1', '--dry-run'],
      shown: [],
    });
  });

  it("reads the quick start's `node bin/udcli.js` (the clone's own build) as a udcli command", () => {
    const [block] = readDocBlocks(
      fence('sh', ['npm ci   # installs', "node bin/udcli.js user demo_player  # the clone's build"].join('\n')),
    );
    expect(block!.steps).toMatchObject([{ kind: 'command', argv: ['user', 'demo_player'] }]);
  });

  it('takes placeholders, options in brackets and alternatives as a synopsis, with the options of each form', () => {
    const [block] = readDocBlocks(
      fence(
        '',
        [
          'udcli sandbox status | stop | info [--json]',
          'udcli sandbox start [--port 8787] [--seed demo|none | --data FILE]',
          '                    [--detach]',
          'udcli profile remove <name>',
          'udcli friends 01e528d59829836fd23b09085b56edab --all -o ndjson | wc -l',
        ].join('\n'),
      ),
    );
    const [status, start, remove, friends] = block!.steps;
    expect(status).toMatchObject({
      kind: 'synopsis',
      forms: [
        { path: ['sandbox', 'status'], options: [] },
        { path: ['sandbox', 'stop'], options: [] },
        { path: ['sandbox', 'info'], options: ['--json'] },
      ],
    });
    expect(start).toMatchObject({
      kind: 'synopsis',
      forms: [{ path: ['sandbox', 'start'], options: ['--port', '--seed', '--data', '--detach'] }],
    });
    expect(remove).toMatchObject({ kind: 'synopsis', forms: [{ path: ['profile', 'remove'], options: [] }] });
    expect(friends).toMatchObject({
      kind: 'command',
      piped: true,
      through: [['wc', '-l']],
      argv: ['friends', '01e528d59829836fd23b09085b56edab', '--all', '-o', 'ndjson'],
    });
  });

  it('follows heredocs, mkdir/cd, eval "$(udcli …)", < FILE, and $-style blocks whose output is unprefixed', () => {
    const blocks = readDocBlocks(
      fence(
        'sh',
        [
          "cat > testers.txt <<'EOF'",
          '# one a line',
          'alice',
          'EOF',
          'mkdir orbit && cd orbit',
          'eval "$(udcli auth token 1001 --as demo_player --export)"',
          'udcli config set signing_secret - < secret.txt',
        ].join('\n'),
      ) +
        fence(
          '',
          [
            '$ udcli --profile live products take U xp-boost --qty 5',
            'Changed: xp-boost of 01e5…: 7 → 2',
            '$ curl -s http://x',
            'not ours',
          ].join('\n'),
        ) +
        fence('html', 'udcli user never-read-in-html'),
    );
    expect(blocks).toHaveLength(2);
    expect(blocks[0]!.steps).toMatchObject([
      { kind: 'file', path: 'testers.txt', content: '# one a line\nalice\n' },
      { kind: 'mkdir', path: 'orbit' },
      { kind: 'cd', path: 'orbit' },
      {
        kind: 'command',
        argv: ['auth', 'token', '1001', '--as', 'demo_player', '--export'],
        evaluated: true,
        piped: true,
      },
      { kind: 'command', argv: ['config', 'set', 'signing_secret', '-'], stdinFile: 'secret.txt' },
    ]);
    expect(blocks[1]!.steps).toMatchObject([
      {
        kind: 'command',
        argv: ['--profile', 'live', 'products', 'take', 'U', 'xp-boost', '--qty', '5'],
        shown: ['Changed: xp-boost of 01e5…: 7 → 2'],
      },
    ]);
  });

  it('splits shell words as a shell does: quotes, escapes, operators, comments', () => {
    expect(tokenize(`a 'b c' "d \\"e\\"" f\\ g | h && i < j # k`)).toEqual([
      { word: 'a' },
      { word: 'b c' },
      { word: 'd "e"' },
      { word: 'f g' },
      { op: '|' },
      { word: 'h' },
      { op: '&&' },
      { word: 'i' },
      { op: '<' },
      { word: 'j' },
    ]);
  });
});
