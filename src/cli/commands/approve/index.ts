/** `udcli approve FILE`: a second operator's approval of a plan, kept in the trail. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { addVerb, type Verb } from '../../verb.js';

export const APPROVE: Verb = {
  name: 'approve',
  description:
    "Approve a plan written with --plan (by another operator): the approval, with the plan's hash, goes to the trail",
  arguments: [['<file>', 'the plan file']],
  after: `
A profile with approval_over N runs a change touching more than N players only from a plan
approved by an operator other than the one who wrote it and the one who runs it. The plan's
hash binds the approval to its players, their state when it was written, the change and the
target: an edited plan is refused.

Examples:
  $ udcli --profile prod products give @users.txt sword-of-dawn --plan plan.json --ticket SUP-2000 --reason "event"
  $ UDCLI_OPERATOR="Ben Ode <ben@studio.test>" udcli --profile prod approve plan.json
  $ udcli --profile prod products give @users.txt sword-of-dawn --plan plan.json --ticket SUP-2000 --reason "event" --yes`,
  run: async (factory, file: string) => (await import('./run.js')).run(factory, { file }),
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, APPROVE);
}
