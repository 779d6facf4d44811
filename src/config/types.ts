import type { ParentType } from '../domain/types.js';

import type { SigningScheme } from '../domain/contract.js';

/** `agi` is the platform's own (challenge) scheme and the default; contract: Signatures. */
export type { SigningScheme };

/** A profile as stored in the config file (snake_case keys, as in docs/CLI.md). */
export interface StoredProfile {
  base_url?: string;
  site_url?: string;
  api_key?: string;
  signing_secret?: string;
  signing_scheme?: SigningScheme;
  /** Send PUT/DELETE as POST with `method=put|delete` (the platform SDK's way); default on under agi. */
  verb_override?: boolean;
  game_id?: string;
  type?: ParentType;
  cookie?: string;
  production?: boolean;
  /** Every change needs --reason and --ticket (refused before anything is sent without them). */
  require_reason?: boolean;
  /**
   * The team's trail: a PostgreSQL database (`postgres://user@host:5432/db`) every trail line goes
   * to instead of the local audit log. Never with a password: that comes from PGPASSWORD,
   * UDCLI_AUDIT_PASSWORD or a prompt.
   */
  audit_url?: string;
  /** Who runs udcli here (`Ana Lopes <ana@studio.test>`); UDCLI_OPERATOR overrides it. */
  operator?: string;
  /** Every change needs a named operator (UDCLI_OPERATOR or `operator`), on `operators` when listed. */
  operator_required?: boolean;
  /** The team: the operators allowed to change data under this profile. */
  operators?: string[];
  /** The skus (or base skus) a product change may name; `*` matches any run of characters. */
  products_allowed?: string[];
  /** The largest --qty of one product change. */
  max_quantity?: number;
  /** The most players one run may touch (a batch's list; a single change is one). */
  max_players?: number;
  /** A regular expression every --ticket must match whole; with it, a ticket is required. */
  ticket_pattern?: string;
  /** A run touching more players than this needs a plan approved by another operator. */
  approval_over?: number;
}

export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

/** What a profile bounds a change to (src/ops/policy.ts): each unset key bounds nothing. */
export interface Policy {
  productsAllowed?: string[];
  maxQuantity?: number;
  maxPlayers?: number;
  ticketPattern?: string;
  approvalOver?: number;
}

/** The profile after precedence (flag > env > profile > built-in default). */
export interface Settings {
  profile: string;
  /** True when the built-in `sandbox` profile is in effect (embedded-sandbox fallback allowed). */
  builtInSandbox: boolean;
  baseUrl: string;
  siteUrl: string;
  apiKey?: string;
  signingSecret?: string;
  signingScheme: SigningScheme;
  verbOverride: boolean;
  gameId?: string;
  type: ParentType;
  cookie?: string;
  production: boolean;
  requireReason: boolean;
  /** The team trail's database (no password in it), when the profile names one. */
  auditUrl?: string;
  /** The profile's or UDCLI_OPERATOR's operator; the trail falls back to `$USER` without one. */
  operator?: string;
  operatorRequired: boolean;
  operators?: string[];
  policy: Policy;
  /**
   * The stored profiles marked production, when this run goes to the built-in sandbox: a team
   * that has one sees SANDBOX where its changes land.
   */
  productionElsewhere?: string[];
  sources: Partial<Record<keyof StoredProfile, SettingSource>>;
  /**
   * The built-in profile only: which game and key it took from a sandbox, and why ("game 4711,
   * the only game loaded in the running sandbox"); set by src/cli/sandbox-profile.ts.
   */
  followed?: string;
}
