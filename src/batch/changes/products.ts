/**
 * What `products give` and `take` share, for the change runner (src/batch/change.ts): the
 * product and its holding, the sku checked once for a batch, the audit command, the receipt,
 * the lost reply's judgement, the dry run's expectation, the columns.
 */
import { scopeArgs, undoFlags } from '../../audit/tracked.js';
import { productReceipt, shortUid, undoLine } from '../../audit/receipt.js';
import type { ChangeType } from '../change-type.js';
import type { ApiClient, ProductTarget, Reply } from '../../client/types.js';
import { unitsHeld } from '../../domain/holdings.js';
import { productOutcome, productState, type ProductState } from '../../domain/outcome.js';
import { amountText, splitPack, unitsOfChange } from '../../domain/packs.js';
import type { ProductEntry } from '../../domain/types.js';
import { ApiError } from '../../errors.js';
import { printItem, type ScopeOptions as ProductOptions } from '../../ops/args.js';
import type { Factory } from '../../ops/factory.js';
import { readProduct, resolveProductTarget, suggestSku } from '../../ops/products.js';
import { PRODUCT_ENTRY_FIELDS, checkReplyFields } from '../../ops/reply-fields.js';
import { PRODUCT_COLUMNS, fieldView } from '../../ops/columns/products.js';

export interface ProductInput {
  target: ProductTarget;
  action: 'give' | 'take';
  qty: number;
  /** give: the unsigned POST grant instead of the signed PUT. */
  post: boolean;
}

/** What one verb adds to the shared product change. */
export interface ProductVerb<Opts extends ProductOptions> {
  action: 'give' | 'take';
  parse(opts: Opts, target: ProductTarget): { qty: number; post: boolean };
  perform(client: ApiClient, uid: string, input: ProductInput): Promise<Reply<ProductEntry>>;
}

export function productChange<Opts extends ProductOptions>(
  verb: ProductVerb<Opts>,
): ChangeType<{ uid: string; sku: string }, Opts, ProductInput, null, ProductEntry | null, ProductEntry> {
  const toward = verb.action === 'give' ? 'to' : 'from';
  const units = (i: ProductInput) => unitsOfChange(i.target.sku, i.qty);
  const amount = (i: ProductInput) => amountText(i.target.sku, i.qty);
  /** `2 × gems:500 = 1,000 units` or `25 units of gems`, and what the batch and the spinner add. */
  const what = (i: ProductInput): string => {
    const shown = amount(i);
    return shown.includes('×') ? shown : `${shown} of ${i.target.sku}`;
  };
  return {
    command: `products ${verb.action}`,
    key: { name: 'sku', of: (args) => args.sku },
    // Neither a give nor a take is safe to repeat: a lost reply is decided by reading the holding.
    idempotent: false,
    async parse(factory, args, opts) {
      const settings = await factory.settings();
      const target = resolveProductTarget(settings, opts, args.sku);
      return { target, action: verb.action, ...verb.parse(opts, target) };
    },
    argv: ({ target, qty, post }, form) => [
      target.sku,
      '--qty',
      String(qty),
      ...(post ? ['--post'] : []),
      ...(form === 'journal' ? ['--game', target.parentId, '--type', String(target.type)] : []),
    ],
    // A batch reads the sku once, through its first user: a sku that does not exist is the
    // command's 404 (exit 4), dry or not, instead of the same failure on every line.
    async prepare(client, { target }, how) {
      if (!how.batch || how.sample === null) return null;
      const sample = how.sample;
      try {
        await readProduct(client, sample, target);
      } catch (err) {
        if (!(err instanceof ApiError) || err.httpStatus !== 404) return null;
        // The user's products without the sku answer when the user exists: then the sku is what is missing.
        const userKnown = await client
          .listProducts(sample, { parentId: target.parentId, ...(target.type ? { type: target.type } : {}) })
          .then(
            () => true,
            () => false,
          );
        if (userKnown) await suggestSku(client, sample, target)(err);
      }
      return null;
    },
    confirm: (input, who) => `${verb.action} ${what(input)} ${toward} ${who}`,
    label: (input) => `${verb.action} ${what(input)}${input.post ? ' (POST grant)' : ''}`,
    spin: (input) => `${verb.action === 'give' ? 'Giving' : 'Taking'} ${what(input)}`,
    read: (client, uid, { target }) => readProduct(client, uid, target),
    perform: (client, uid, input) => verb.perform(client, uid, input),
    kept: (before) => productState(before),
    judge: (before, now, input) => productOutcome(before as ProductState, now, input.action, units(input)),
    trace(ctx, _client, uid, input) {
      const { target, action } = input;
      const scope = scopeArgs(ctx, target.parentId, target.type);
      return {
        scope,
        unknownChange: `${target.sku} of ${shortUid(uid)}: ${action} ${amount(input)}`,
        undoAhead: (before) => {
          // What the receipt's undo will be once applied: the units moved back, by the base sku.
          const { units: held, unlockable } = productState(before);
          let moved = action === 'give' ? units(input) : -units(input);
          if (unlockable === true && held !== null) moved = action === 'give' ? 1 - held : -held;
          if (moved === 0) return null;
          const back = moved > 0 ? 'take' : 'give';
          return undoLine(
            [['products', back, uid, splitPack(target.sku).base, '--qty', String(Math.abs(moved))]],
            [...scope, ...undoFlags(ctx)],
          );
        },
        receipt: async (before, reply) => ({
          // Naming a pack (`gems:500`) moves qty packs, by PUT or POST; naming the base, qty units.
          receipt: productReceipt({
            uid,
            sku: target.sku,
            action,
            qty: units(input),
            amount: amount(input),
            before,
            after: reply.payload,
            scope: [...scope, ...undoFlags(ctx)],
          }),
          after: reply.payload,
        }),
      };
    },
    expected(uid, input, entry) {
      const { target, action } = input;
      const held = unitsHeld(entry);
      if (held === null) return `${target.sku} of ${shortUid(uid)}: ${action} ${amount(input)} (quantity held unknown)`;
      if (action === 'take' && held < units(input))
        return `refused (409): ${shortUid(uid)} holds ${held} of ${target.sku}, fewer than ${units(input)}; nothing would change`;
      return `${target.sku} of ${shortUid(uid)}: ${held} → ${action === 'give' ? held + units(input) : held - units(input)} (${action} ${amount(input)})`;
    },
    describe: (uid, input) =>
      `${verb.action} ${what(input)}${input.post ? ' (POST grant)' : ''} ${toward} ${uid} (game ${input.target.parentId})`,
    suggest: (client, uid, { target }) => suggestSku(client, uid, target),
    printer(factory: Factory) {
      const printable = checkReplyFields(factory, PRODUCT_COLUMNS, PRODUCT_ENTRY_FIELDS);
      return async (reply) => {
        const payload = factory.globals().fields ? printable(fieldView(reply.payload)) : reply.payload;
        await printItem(factory, { bodyText: reply.bodyText, payload }, PRODUCT_COLUMNS);
      };
    },
  };
}
