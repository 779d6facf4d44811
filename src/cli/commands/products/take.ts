import type { Factory } from '../../factory.js';
import { confirmMutation } from '../../safety.js';
import { parseInteger, parseUid, printItem } from '../../args.js';
import { PRODUCT_COLUMNS, fieldView } from './columns.js';
import type { TakeOptions } from './index.js';
import { resolveProductTarget, takeProduct } from './operations.js';

export async function run(factory: Factory, args: { uid: string; sku: string }, opts: TakeOptions): Promise<void> {
  const uid = parseUid(args.uid);
  const qty = parseInteger(opts.qty ?? '1', '--qty', { min: 1 });
  const settings = await factory.settings();
  const target = resolveProductTarget(settings, opts, args.sku);
  await confirmMutation(factory, settings, `take ${qty} × ${target.sku} from user ${uid}`);
  const client = await factory.client();
  const out = await factory.output();
  const reply = await out.spin(`Taking ${qty} × ${target.sku}`, () => takeProduct(client, uid, target, qty));
  const payload = factory.globals().fields ? fieldView(reply.payload) : reply.payload;
  await printItem(factory, { bodyText: reply.bodyText, payload }, PRODUCT_COLUMNS);
}
