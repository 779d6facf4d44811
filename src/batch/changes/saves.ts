/**
 * What `saves set` and `saves erase` share, for the change runner (src/batch/change.ts): the
 * key and its value as state, the player's auth token, the audit command, the receipt and the
 * undo (an earlier value too long for a command line kept in a file).
 */
import { saveReceipt, saveWords, saveState, writeUndoFile, type SaveChange } from '../../audit/saves.js';
import { shortUid } from '../../audit/receipt.js';
import { undoFlags } from '../../audit/tracked.js';
import type { ChangeAsk, ChangeType } from '../change-type.js';
import type { ApiClient, EraseResult, Reply, SaveResult } from '../../client/types.js';
import type { Factory } from '../../ops/factory.js';
import {
  givenAuthToken,
  missingAuthToken,
  parseSaveKey,
  readSave,
  saveBytes,
  type AuthTokenSource,
} from '../../ops/saves.js';

/** What every save change takes besides the batch options: the player's token. */
export interface ChangeOptions {
  authToken?: string;
}
import { autoAuthToken } from '../../ops/save-token.js';

export interface SaveInput<C extends SaveChange = SaveChange> {
  key: string;
  change: C;
  given: AuthTokenSource | null;
}

/** What one verb adds to the shared save change. */
export interface SaveVerb<
  Args extends { uid: string; key: string },
  T extends SaveResult | EraseResult,
  C extends SaveChange,
> {
  action: C['action'];
  change(factory: Factory, args: Args): Promise<C>;
  confirm(input: SaveInput<C>, who: string): string;
  /** The change without its user, for a batch: `save slot1 (12 bytes)`. */
  label(input: SaveInput<C>): string;
  spin(key: string): string;
  perform(client: ApiClient, uid: string, input: SaveInput<C>, token: string): Promise<Reply<T>>;
  ask?: ChangeAsk<SaveInput<C>, string | null>;
  printer(factory: Factory): (reply: Reply<T>, input: SaveInput<C>) => Promise<void>;
}

/** A save's value as a dry run shows it: `12 bytes`, or `(none)`. */
function sizeText(value: string | null): string {
  return value === null ? '(none)' : `${saveBytes(value)} bytes`;
}

export function saveChange<
  Args extends { uid: string; key: string },
  T extends SaveResult | EraseResult,
  C extends SaveChange,
>(verb: SaveVerb<Args, T, C>): ChangeType<Args, ChangeOptions, SaveInput<C>, null, string | null, T, AuthTokenSource> {
  return {
    command: `saves ${verb.action}`,
    key: { name: 'key', of: (args) => args.key },
    // The value (or its absence) is the whole state: sending it again leaves the same.
    idempotent: true,
    async parse(factory, args, opts, who) {
      const key = parseSaveKey(args.key);
      const given = givenAuthToken(opts.authToken, factory.io.env);
      const change = await verb.change(factory, args);
      const settings = await factory.settings();
      // A production profile is never the sandbox: no token, no change, before anything is sent.
      if (!given && settings.production) throw missingAuthToken(who);
      return { key, change, given };
    },
    // The journal names the key alone (docs/ARCHITECTURE.md: a rerun gives the same value).
    argv: ({ key, change }, form) => (form === 'journal' ? [key] : saveWords(key, change)),
    prepare: async () => null,
    confirm: verb.confirm,
    label: verb.label,
    ...(verb.ask ? { ask: verb.ask } : {}),
    spin: ({ key }) => verb.spin(key),
    authorize: async (factory, settings, client, uid, { given }) =>
      given ?? (await autoAuthToken(factory, settings, client, uid)),
    read: (client, uid, { key }) => readSave(client, uid, key),
    // A dry run asks for no token (nothing is sent): the request it shows carries a stand-in, redacted.
    perform: (client, uid, input, token) =>
      verb.perform(client, uid, input, token === undefined ? 'dry-run' : token.token),
    kept: (before) => before,
    trace(ctx, _client, uid, { key, change }, _prepared, token) {
      const scope = ctx.target ?? [];
      return {
        scope,
        // The value read decides whether to send (an erase of nothing is not sent): read, then send.
        sequential: true,
        audited: (value) => saveState(key, value),
        unknownChange: `save ${key} of ${shortUid(uid)}: ${change.action}`,
        receipt: async (before) => {
          const after = change.action === 'set' ? change.value : null;
          const tokenGiven = token.how !== 'sandbox';
          return {
            receipt: saveReceipt({
              uid,
              key,
              before,
              after,
              scope: undoFlags(ctx),
              tokenGiven,
              keep: (value) => writeUndoFile(ctx.env, uid, key, value),
            }),
            after: saveState(key, after),
          };
        },
      };
    },
    expected: (uid, { key, change }, before) =>
      `save ${key} of ${shortUid(uid)}: ${sizeText(before)} → ${change.action === 'set' ? sizeText(change.value) : '(erased)'}`,
    describe: (uid, input) => `${verb.label(input)} of ${uid}`,
    printer: (factory) => verb.printer(factory),
  };
}
