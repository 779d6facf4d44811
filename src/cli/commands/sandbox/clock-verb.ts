/** `udcli sandbox clock now|advance|set|reset`; the handler is clock.ts. */
import type { ClockAction, ClockOptions } from './clock.js';
import type { Factory } from '../../../ops/factory.js';
import type { Verb } from '../../verb.js';
import { JSON_OPTION, PORT } from './verb-options.js';

/** One verb of `sandbox clock`: the action it asks for, given its argument when it takes one. */
function clockVerb(
  words: Pick<Verb, 'name' | 'description' | 'examples'>,
  argument: readonly [string, string] | undefined,
  action: (value: string) => ClockAction,
): Verb {
  const clock = async (factory: Factory, value: string, opts: ClockOptions) =>
    (await import('./clock.js')).clockCommand(factory, action(value), opts);
  return {
    ...words,
    ...(argument === undefined ? {} : { arguments: [argument] }),
    options: [PORT, JSON_OPTION],
    run:
      argument === undefined
        ? async (factory, opts: ClockOptions) => clock(factory, '', opts)
        : async (factory, value: string, opts: ClockOptions) => clock(factory, value, opts),
  };
}

export const CLOCK: Verb = {
  name: 'clock',
  description:
    "Show or move the running sandbox's virtual clock (token, session and challenge expiry, the hmac timestamp window)",
  examples: [
    'udcli sandbox clock now',
    'udcli sandbox clock advance 901s',
    'udcli sandbox clock set 2030-01-01T00:00:00Z',
    'udcli sandbox clock reset',
  ],
  verbs: [
    clockVerb(
      {
        name: 'now',
        description: "Show the sandbox's time and its offset from the real clock",
        examples: ['udcli sandbox clock now', 'udcli sandbox clock now --port 9090 --json'],
      },
      undefined,
      () => ({ action: 'now' }),
    ),
    clockVerb(
      {
        name: 'advance',
        description: 'Move the clock forward: seconds, or a number with s, m, h or d (e.g. 901s, 15m)',
        examples: ['udcli sandbox clock advance 901s   # a 900 s token has expired', 'udcli sandbox clock advance 1d'],
      },
      ['<duration>', 'e.g. 901s, 15m, 2h, 1d, or plain seconds'],
      (value) => ({ action: 'advance', value }),
    ),
    clockVerb(
      {
        name: 'set',
        description:
          'Put the clock at a date-time (ISO 8601, UTC unless it names a zone), or now (the real time); backwards is allowed',
        examples: [
          'udcli sandbox clock set 2030-01-01T00:00:00Z',
          'udcli sandbox clock set now   # back to the real time',
        ],
      },
      ['<iso>', 'e.g. 2030-01-01T00:00:00Z, or now'],
      (value) => ({ action: 'set', value }),
    ),
    clockVerb(
      {
        name: 'reset',
        description: 'Put the clock back on the real time (offset 0)',
        examples: ['udcli sandbox clock reset'],
      },
      undefined,
      () => ({ action: 'reset' }),
    ),
  ],
};
