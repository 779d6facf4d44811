import { tracedSingleProduct } from '../../../audit/tracked.js';
import { isBatchArg, rejectBatchFlags, type BatchFlags } from '../../../batch/flags.js';
import { amountText } from '../../../domain/packs.js';
import { dryRunProduct } from '../../../ops/dry-run.js';
import type { Factory } from '../../../ops/factory.js';
import { confirmMutation } from '../../../ops/safety.js';
import { parseInteger, parseUserBeforeKey, printItem, userLabel } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { PRODUCT_ENTRY_FIELDS, checkReplyFields } from '../../../ops/reply-fields.js';
import { PRODUCT_COLUMNS, fieldView } from './columns.js';
import type { TakeOptions } from './index.js';
import { resolveProductTarget, suggestSku, takeProduct } from '../../../ops/products.js';

export async function run(factory: Factory, args: { uid: string; sku: string }, opts: TakeOptions & BatchFlags): Promise<void> {
  if (isBatchArg(args.uid)) {
    const { runProductBatch } = await import('../../../batch/commands.js');
    await runProductBatch(factory, { spec: args.uid, action: 'take', sku: args.sku }, opts);
    return;
  }
  // --dry-run works for one user too; the other batch options need @FILE.
  rejectBatchFlags({ ...opts, dryRun: undefined });
  const user = parseUserBeforeKey(args.uid, args.sku, 'sku', 'products take');
  const qty = parseInteger(opts.qty ?? '1', '--qty', { min: 1 });
  const printable = checkReplyFields(factory, PRODUCT_COLUMNS, PRODUCT_ENTRY_FIELDS);
  const settings = await factory.settings();
  const target = resolveProductTarget(settings, opts, args.sku);
  if (opts.dryRun) {
    const client = await factory.client();
    const uid = await resolveUid(client, user);
    await dryRunProduct(factory, client, uid, target, 'take', qty, (dry) => takeProduct(dry, uid, target, qty));
    return;
  }
  await confirmMutation(factory, settings, `take ${amountText(target.sku, qty, 'take')} of ${target.sku} from user ${userLabel(user)}`);
  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  const reply = await out.spin(`Taking ${amountText(target.sku, qty, 'take')} of ${target.sku}`, () =>
    tracedSingleProduct(factory, settings, client, uid, target, { action: 'take', qty }, (c) => takeProduct(c, uid, target, qty)),
  ).catch(suggestSku(client, uid, target));
  const payload = factory.globals().fields ? printable(fieldView(reply.payload)) : reply.payload;
  await printItem(factory, { bodyText: reply.bodyText, payload }, PRODUCT_COLUMNS);
}
