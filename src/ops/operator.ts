/**
 * Who makes a change (issue 52, point 4). A team profile names its operators: with
 * `operator_required` a change needs one (UDCLI_OPERATOR, else the profile's `operator`), and
 * with an `operators` list that one must be on it; either refusal comes before anything is sent.
 * Without them the trail keeps `$USER`, as it always did.
 */
import type { Settings } from '../config/types.js';
import { UsageError } from '../errors.js';
import { printable } from '../printable.js';

/**
 * One person however they are written: the address inside `<…>` when there is one
 * (`Ana Lopes <ana@studio.test>` and `ana@studio.test` agree), else the name; any case.
 */
export function operatorIdentity(name: string): string {
  const email = /<([^<>]+)>\s*$/.exec(name)?.[1] ?? (/^[^\s@<>]+@[^\s@<>]+$/.test(name.trim()) ? name : null);
  return (email ?? name).trim().toLowerCase();
}

export function sameOperator(a: string, b: string): boolean {
  return operatorIdentity(a) === operatorIdentity(b);
}

/**
 * The operator of this run, checked against the profile: throws UsageError (exit 2) when the
 * profile requires one and none is named, or names one not on its list.
 */
export function resolveOperator(
  /** Who runs it when no operator is named: the trail's `$USER` (src/audit/log.ts operatorName). */
  fallback: () => string,
  settings: Pick<Settings, 'profile' | 'operator' | 'operatorRequired' | 'operators'>,
): string {
  if (settings.operatorRequired && settings.operator === undefined) {
    throw new UsageError(
      `profile ${settings.profile} requires a named operator: set UDCLI_OPERATOR="Your Name <you@example.com>" (or the profile's operator); nothing was sent`,
    );
  }
  const name = settings.operator ?? fallback();
  if (settings.operators !== undefined && !settings.operators.some((o) => sameOperator(o, name))) {
    throw new UsageError(
      `operator ${printable(JSON.stringify(name))} is not on the operators list of profile ${settings.profile}; nothing was sent`,
      { hint: `the list: ${settings.operators.join(', ')}` },
    );
  }
  return name;
}
