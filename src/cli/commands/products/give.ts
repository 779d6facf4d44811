import { tracedSingleProduct } from '../../../audit/tracked.js';
import { isBatchArg, rejectBatchFlags, type BatchFlags } from '../../../batch/flags.js';
import { dryRunProduct } from '../../../ops/dry-run.js';
import type { Factory } from '../../../ops/factory.js';
import { confirmMutation } from '../../../ops/safety.js';
import { parseInteger, parseUserBeforeKey, printItem, userLabel } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { PRODUCT_ENTRY_FIELDS, checkReplyFields } from '../../../ops/reply-fields.js';
import { PRODUCT_COLUMNS, fieldView } from './columns.js';
import type { GiveOptions } from './index.js';
import { checkGiveQty, giveProduct, resolveProductTarget, suggestSku } from '../../../ops/products.js';
import { amountText } from '../../../domain/packs.js';

export async function run(factory: Factory, args: { uid: string; sku: string }, opts: GiveOptions & BatchFlags): Promise<void> {
  if (isBatchArg(args.uid)) {
    const { runProductBatch } = await import('../../../batch/commands.js');
    await runProductBatch(factory, { spec: args.uid, action: 'give', sku: args.sku }, opts);
    return;
  }
  // --dry-run works for one user too; the other batch options need @FILE.
  rejectBatchFlags({ ...opts, dryRun: undefined });
  const user = parseUserBeforeKey(args.uid, args.sku, 'sku', 'products give');
  const qty = parseInteger(opts.qty ?? '1', '--qty', { min: 1 });
  const printable = checkReplyFields(factory, PRODUCT_COLUMNS, PRODUCT_ENTRY_FIELDS);
  const settings = await factory.settings();
  const target = resolveProductTarget(settings, opts, args.sku);
  checkGiveQty(target, qty);
  if (opts.dryRun) {
    const client = await factory.client();
    const uid = await resolveUid(client, user);
    await dryRunProduct(factory, client, uid, target, 'give', qty, (dry) => giveProduct(dry, uid, target, qty, opts.post === true ? 'post' : 'put'));
    return;
  }
  const amount = amountText(target.sku, qty, 'give');
  const what = amount.includes('×') ? amount : `${amount} of ${target.sku}`;
  await confirmMutation(factory, settings, `give ${what} to user ${userLabel(user)}`);
  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  const post = opts.post === true;
  const reply = await out.spin(`Giving ${what}`, () =>
    tracedSingleProduct(factory, settings, client, uid, target, { action: 'give', qty, post }, (c) =>
      giveProduct(c, uid, target, qty, post ? 'post' : 'put'),
    ),
  ).catch(suggestSku(client, uid, target));
  const payload = factory.globals().fields ? printable(fieldView(reply.payload)) : reply.payload;
  await printItem(factory, { bodyText: reply.bodyText, payload }, PRODUCT_COLUMNS);
}
