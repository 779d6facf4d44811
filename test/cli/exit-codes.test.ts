import { CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { describeError, exitCodeFor } from '../../src/cli/exit-codes.js';
import {
  ApiError,
  BatchIncompleteError,
  CancelledError,
  ChildExitError,
  InterruptedError,
  MalformedReplyError,
  NetworkError,
  NotAuthenticatedError,
  UdcliError,
  UsageError,
} from '../../src/errors.js';

describe('exit codes (docs/CLI.md)', () => {
  it.each([
    ['usage error', new UsageError('bad'), 2],
    ['cancelled', new CancelledError('no'), 2],
    ['unknown option', new CommanderError(1, 'commander.unknownOption', "error: unknown option '--x'"), 2],
    ['unknown command', new CommanderError(1, 'commander.unknownCommand', "error: unknown command 'x'"), 2],
    [
      'missing argument',
      new CommanderError(1, 'commander.missingArgument', "error: missing required argument 'uid'"),
      2,
    ],
    ['excess arguments', new CommanderError(1, 'commander.excessArguments', 'error: too many arguments'), 2],
    ['help', new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'), 0],
    ['version', new CommanderError(0, 'commander.version', '0.1.0'), 0],
    ['not authenticated', new NotAuthenticatedError('invalid token'), 3],
    ['401', new ApiError('invalid api_key', 401, 401), 3],
    ['403', new ApiError('bad signature', 403, 403), 3],
    ['404', new ApiError('not found: user', 404, 404), 4],
    ['error code in an HTTP 200 envelope', new ApiError('not found: user', 404, 200), 4],
    [
      '404 page without an envelope (a wrong base_url, not a missing user)',
      new ApiError('HTTP 404 Not Found', 404, 404, { withoutEnvelope: true }),
      1,
    ],
    [
      '401 without an envelope still means not authenticated',
      new ApiError('HTTP 401', 401, 401, { withoutEnvelope: true }),
      3,
    ],
    ['409', new ApiError('insufficient quantity', 409, 409), 1],
    ['500', new ApiError('internal error', 500, 500), 1],
    ['429', new ApiError('rate limited', 429, 429, { retryAfter: 2 }), 7],
    ['network', new NetworkError('connection refused', 'unreachable', false), 5],
    ['timeout', new NetworkError('timed out', 'timeout', true), 5],
    ['batch', new BatchIncompleteError(1, 2), 6],
    ['interrupted (Ctrl-C)', new InterruptedError('batch interrupted'), 130],
    ['malformed reply', new MalformedReplyError('HTML instead of JSON'), 1],
    ['plain udcli error', new UdcliError('doctor: 1 of 6 checks failed'), 1],
    ['unexpected', new TypeError('x is undefined'), 1],
    ['not even an Error', 'boom', 1],
    ['sandbox exec: the command failed', new ChildExitError(3, 'npm exited with code 3'), 3],
    ['sandbox exec: the command was killed by SIGTERM', new ChildExitError(143, 'killed'), 143],
  ])('%s → %i', (_name, error, code) => {
    expect(exitCodeFor(error)).toBe(code);
  });
});

describe('error lines', () => {
  it('turns commander messages into one line with a lower-case suggestion', () => {
    const error = new CommanderError(
      1,
      'commander.unknownCommand',
      "error: unknown command 'usr'\n(Did you mean user?)",
    );
    expect(describeError(error)).toEqual({ code: 2, message: "unknown command 'usr' (did you mean user?)" });
  });

  it('prints nothing more for help and version', () => {
    expect(describeError(new CommanderError(0, 'commander.helpDisplayed', '(outputHelp)'))).toEqual({ code: 0 });
    expect(describeError(new CommanderError(1, 'commander.help', '(outputHelp)'))).toEqual({ code: 2 });
  });

  it('prints nothing for a sandbox exec command that failed: the command spoke for itself', () => {
    expect(describeError(new ChildExitError(42, 'node exited with code 42'))).toEqual({ code: 42 });
  });

  it('marks unexpected errors as internal', () => {
    expect(describeError(new TypeError('x is undefined'))).toEqual({
      code: 1,
      message: 'internal error: x is undefined',
      internal: true,
    });
  });

  it('adds the CLI hint for 429, keeping one the error carries (the client hints 401/403)', () => {
    const signing = new ApiError('bad signature', 403, 403, { hint: "check the profile's signing_secret" });
    expect(describeError(signing).hint).toBe("check the profile's signing_secret");
    expect(describeError(new ApiError('rate limited', 429, 429, { retryAfter: 3 })).hint).toMatch(/wait 3 s/);
    expect(describeError(new UsageError('bad', { hint: 'do this' })).hint).toBe('do this');
    expect(describeError(new ApiError('not found: user', 404, 404)).hint).toBeUndefined();
  });

  it('suggests starting a sandbox only when a local URL is unreachable', () => {
    const refused = new NetworkError('connection refused', 'unreachable', false);
    expect(describeError(refused, { baseUrl: 'http://127.0.0.1:8787' }).hint).toBe(
      'start one with: udcli sandbox start',
    );
    expect(describeError(refused, { baseUrl: 'https://api.example.com' }).hint).toBeUndefined();
    const withHint = new NetworkError('cannot reach', 'unreachable', false, { hint: 'is the service running?' });
    expect(describeError(withHint, { baseUrl: 'http://localhost:8787' }).hint).toBe(
      'start one with: udcli sandbox start',
    );
    expect(describeError(withHint, { baseUrl: 'https://api.example.com' }).hint).toBe('is the service running?');
  });
});
