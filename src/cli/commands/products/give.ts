import { isBatchArg, rejectBatchFlags, type BatchFlags } from '../../../batch/flags.js';
import type { Factory } from '../../factory.js';
import { confirmMutation } from '../../safety.js';
import { parseInteger, parseUid, printItem } from '../../args.js';
import { PRODUCT_COLUMNS, fieldView } from './columns.js';
import type { GiveOptions } from './index.js';
import { giveProduct, resolveProductTarget } from './operations.js';

export async function run(factory: Factory, args: { uid: string; sku: string }, opts: GiveOptions & BatchFlags): Promise<void> {
  if (isBatchArg(args.uid)) {
    const { runProductBatch } = await import('../../../batch/commands.js');
    await runProductBatch(factory, { spec: args.uid, action: 'give', sku: args.sku }, opts);
    return;
  }
  rejectBatchFlags(opts);
  const uid = parseUid(args.uid);
  const qty = parseInteger(opts.qty ?? '1', '--qty', { min: 1 });
  const settings = await factory.settings();
  const target = resolveProductTarget(settings, opts, args.sku);
  await confirmMutation(factory, settings, `give ${qty} × ${target.sku} to user ${uid}`);
  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin(`Giving ${qty} × ${target.sku}`, () =>
    giveProduct(client, uid, target, qty, opts.post ? 'post' : 'put'),
  );
  const payload = factory.globals().fields ? fieldView(reply.payload) : reply.payload;
  await printItem(factory, { bodyText: reply.bodyText, payload }, PRODUCT_COLUMNS);
}
