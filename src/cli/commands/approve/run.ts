import { auditEntry, operatorName } from '../../../audit/log.js';
import { openTrail } from '../../../audit/trail.js';
import { readPlan, shortHash } from '../../../batch/plan.js';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import { resolveOperator, sameOperator } from '../../../ops/operator.js';
import { printable } from '../../../printable.js';
import { withoutUserinfo } from '../../../redact.js';

export async function run(factory: Factory, args: { file: string }): Promise<void> {
  const env = factory.io.env;
  const plan = readPlan(args.file);
  const settings = await factory.settings();
  const approver = resolveOperator(() => operatorName(env), settings);
  if (sameOperator(approver, plan.operator)) {
    throw new UsageError(
      `${printable(approver)} wrote plan ${printable(args.file)}: its approval is another operator's; nothing was recorded`,
    );
  }
  const server = withoutUserinfo(settings.baseUrl);
  if (server !== plan.target.server) {
    throw new UsageError(
      `plan ${printable(args.file)} is for ${printable(plan.target.server)}, profile ${settings.profile} is ${server}: approve it under the plan's profile; nothing was recorded`,
    );
  }
  const what = `${plan.change.label} for ${plan.players.length} players`;
  const trail = await openTrail(env, settings);
  try {
    await trail.append(
      auditEntry({
        env,
        operator: approver,
        profile: settings.profile,
        server: settings.baseUrl,
        argv: ['approve', args.file],
        uid: '',
        before: null,
        after: null,
        kind: 'approval',
        plan: plan.hash,
        change: `approved the plan of ${plan.operator}: ${what}`,
        ...(plan.reason !== undefined ? { reason: plan.reason } : {}),
        ...(plan.ticket !== undefined ? { ticket: plan.ticket } : {}),
      }),
    );
  } finally {
    await trail.close();
  }
  const out = await factory.output();
  out.info(
    `Approved plan ${printable(args.file)} (${shortHash(plan.hash)}) of ${printable(plan.operator)}: ${printable(what)}, as ${printable(approver)}.`,
  );
}
