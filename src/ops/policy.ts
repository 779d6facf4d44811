/**
 * What a team profile bounds a change to (issue 52, point 5): the products it may name, the
 * quantity of one change, the players of one run, the form of its ticket. Checked before
 * anything is sent (before the confirmation too); each refusal is one line and exit 2.
 * The approval line (`approval_over`) needs the trail and is the batch's (src/batch/plan.ts).
 */
import type { Policy } from '../config/types.js';
import { UsageError } from '../errors.js';
import { printable } from '../printable.js';

/** What a policy looks at in a change: its command and journal words, its players, its ticket. */
export interface ChangeFacts {
  profile: string;
  /** `products give` */
  command: string;
  /** The change's words after the user, as the journal keeps them (`gems:500 --qty 2 --game 1001 …`). */
  args: readonly string[];
  /** Players the run touches; null when they cannot be counted before reading (standard input). */
  players: number | null;
  ticket?: string;
}

/** `gems*` → /^gems.*$/: a sku pattern, `*` the one wildcard. */
function skuPattern(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 'i');
}

/** True when the sku, or its base (`gems` of `gems:500`), matches an allowed pattern. */
export function productAllowed(sku: string, allowed: readonly string[]): boolean {
  const base = sku.split(':')[0]!;
  return allowed.some((glob) => skuPattern(glob).test(sku) || skuPattern(glob).test(base));
}

/** The product and quantity of a product change; nothing for other changes. */
function productOf(facts: ChangeFacts): { sku: string; qty: number } | null {
  if (!facts.command.startsWith('products ')) return null;
  const sku = facts.args[0];
  if (sku === undefined) return null;
  const at = facts.args.indexOf('--qty');
  const qty = at >= 0 ? Number(facts.args[at + 1]) : 1;
  return { sku, qty };
}

function refuse(facts: ChangeFacts, why: string, hint?: string): never {
  throw new UsageError(`policy of profile ${facts.profile}: ${why}; nothing was sent`, hint ? { hint } : undefined);
}

/** Throws UsageError (exit 2) naming the first bound the change passes. */
export function checkPolicy(policy: Policy, facts: ChangeFacts): void {
  const product = productOf(facts);
  if (product && policy.productsAllowed && !productAllowed(product.sku, policy.productsAllowed)) {
    refuse(
      facts,
      `product ${printable(JSON.stringify(product.sku))} is not allowed`,
      `products_allowed: ${policy.productsAllowed.join(', ')}`,
    );
  }
  if (product && policy.maxQuantity !== undefined && !(product.qty <= policy.maxQuantity)) {
    refuse(facts, `--qty ${product.qty} is over max_quantity ${policy.maxQuantity}`);
  }
  if (policy.maxPlayers !== undefined) {
    if (facts.players === null) {
      refuse(facts, `max_players ${policy.maxPlayers} needs a list that can be counted first`, 'give @FILE, not @-');
    }
    if (facts.players > policy.maxPlayers) {
      refuse(facts, `${facts.players} players is over max_players ${policy.maxPlayers}`, 'split the list');
    }
  }
  if (policy.ticketPattern !== undefined) {
    const pattern = printable(policy.ticketPattern);
    if (facts.ticket === undefined) refuse(facts, `a --ticket matching ${pattern} is required`);
    // Whole: `SUP-\d+` must not pass `XSUP-1x`. The pattern and the ticket are both bounded.
    if (!new RegExp(`^(?:${policy.ticketPattern})$`, 'u').test(facts.ticket)) {
      refuse(facts, `--ticket ${printable(JSON.stringify(facts.ticket))} does not match ${pattern}`);
    }
  }
}
