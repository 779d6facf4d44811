/** Resource shapes of the User Data REST Service (spec section 2), shared by client and sandbox. */
import type { ParentType } from './contract.js';

export interface Envelope<T> {
  version: number;
  code: number;
  message: string;
  payload: T | null;
}

/** Spec 2.2 */
export interface AuthenticatedUser {
  uid: string;
  username: string;
}

/** Spec 2.3: the token generator's reply, not wrapped in an envelope. */
export interface TokenRecord {
  status: boolean;
  game_id: string;
  uid: string;
  token: string;
  created_on: number;
  expires_on: number;
  duration: number;
}

/** Spec 2.4. The real platform may send numbers as strings and vice versa (SERVICE.md: Tolerance). */
export interface User {
  uid: string;
  username: string;
  avatar: string;
  gender?: string;
  created_on?: string | number;
  plays_game?: string | number;
  [extra: string]: unknown;
}

/** Spec 2.5 */
export type Friend = User;

export type { ParentType };

/** Spec 2.6 */
export interface AchievementDefinition {
  id: number;
  developer_id: string;
  parent_id: string;
  type: ParentType;
  name: string;
  description: string;
  admin_description: string;
  icon: string;
  start_value: number;
  target_value: number;
  score: number;
  state: string;
  completion_count: number;
  created_date: number;
  updated_date: number;
  tags: Record<string, string>;
  [extra: string]: unknown;
}

/**
 * Spec 2.7, in the platform's words (domain/quests.ts): state `In Progress`, `Completed` or
 * `Revoked`; dates `YYYY-MM-DD HH:MM:SS` (UTC), `completed_date` `0000-00-00 00:00:00` until
 * completed; `percent_complete` an integer. The service lists started quests only; a row udcli
 * adds for a quest never touched is `Not Started` with null id and dates. Loose types: the real
 * platform may send numbers as strings and other surprises (SERVICE.md: Tolerance).
 */
export interface UserAchievement {
  id: number | null;
  uid: string;
  achievement_id: number;
  parent_id: string;
  current_value: number;
  percent_complete: number;
  state: string;
  started_date: string | null;
  completed_date: string | null;
  updated_date: string | null;
  developer_id: string;
  type: ParentType;
  name: string;
  target_value: number;
  [extra: string]: unknown;
}

/** Spec 2.8 */
export interface AchievementUpdate {
  state: string;
  current_value: number;
  percent_complete: number;
  developer_id: string;
  [extra: string]: unknown;
}

/** Spec 2.9 */
export interface Purchase {
  success: boolean;
  /**
   * Contract (Products): `"active"` for a held unlockable, the units of a consumable, `false`
   * when not held; clients also meet objects such as `{quantity}` (tolerance).
   */
  data: unknown;
  message: string;
}

export interface Product {
  id: number;
  sku: string;
  name: string;
  description: string;
  type: string;
  price: string;
  display_order: number;
  /** `[]`, or `{"consumable_qty": PACK}` for a consumable. */
  data: unknown;
  media: { image: string };
  status: string;
  parent_type: string;
  sold: number;
  created_on: string;
  updated_on: string;
  [extra: string]: unknown;
}

export interface ProductEntry {
  purchase: Purchase;
  product: Product;
}

export const API_PREFIX = '/services/rest/v1';
export const ENVELOPE_VERSION = 1;
