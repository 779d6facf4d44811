/** Resource shapes of the User Data REST Service (spec section 2), shared by client and sandbox. */
import type { ParentType } from './contract.js';
import type {
  ACHIEVEMENT_DEFINITION,
  ACHIEVEMENT_UPDATE,
  AUTHENTICATED_USER,
  PRODUCT_ENTRY,
  USER,
  USER_ACHIEVEMENT,
} from './payloads.js';
import type { FromSchema, Tolerant } from './schema-type.js';

export interface Envelope<T> {
  version: number;
  code: number;
  message: string;
  payload: T | null;
}

/**
 * The reply shapes are declared once, as the JSON Schemas of payloads.ts; these types follow from
 * them. What a client must take beyond what the sandbox sends (the real platform's numbers as
 * strings, a quest never started) is said here, as a widening of the described type.
 */

/** Spec 2.2 */
export type AuthenticatedUser = FromSchema<typeof AUTHENTICATED_USER>;

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

/**
 * Spec 2.4. The real platform may send numbers as strings and vice versa (SERVICE.md: Tolerance):
 * beyond these, a client takes each field as whatever comes.
 */
export type User = Tolerant<
  Pick<FromSchema<typeof USER>, 'uid' | 'username' | 'avatar' | 'gender'> & {
    created_on?: string | number;
    plays_game?: string | number;
  }
>;

/** Spec 2.5 */
export type Friend = User;

export type { ParentType };

/** Spec 2.6 */
export type AchievementDefinition = Tolerant<FromSchema<typeof ACHIEVEMENT_DEFINITION>>;

type Described<S> = FromSchema<S>;

/**
 * Spec 2.7, in the platform's words (domain/quests.ts): state `In Progress`, `Completed` or
 * `Revoked`; dates `YYYY-MM-DD HH:MM:SS` (UTC), `completed_date` `0000-00-00 00:00:00` until
 * completed; `percent_complete` an integer. The service lists started quests only; a row udcli
 * adds for a quest never touched is `Not Started` with null id and dates. Loose types: the real
 * platform may send other states (SERVICE.md: Tolerance).
 */
export type UserAchievement = Tolerant<
  Omit<Described<typeof USER_ACHIEVEMENT>, 'id' | 'state' | 'started_date' | 'completed_date' | 'updated_date'> & {
    id: number | null;
    state: string;
    started_date: string | null;
    completed_date: string | null;
    updated_date: string | null;
  }
>;

/**
 * Spec 2.8; the platform's submit and reset replies add the rest (docs/PLATFORM.md "Quests"), a client may miss them.
 */
type DescribedUpdate = Described<typeof ACHIEVEMENT_UPDATE>;
export type AchievementUpdate = Tolerant<
  Pick<DescribedUpdate, 'current_value' | 'percent_complete' | 'developer_id'> &
    Partial<Omit<DescribedUpdate, 'state' | 'current_value' | 'percent_complete' | 'developer_id'>> & { state: string }
>;

type DescribedEntry = Described<typeof PRODUCT_ENTRY>;

/** Spec 2.9 */
export type Purchase = Omit<DescribedEntry['purchase'], 'data'> & {
  /**
   * Contract (Products): `"active"` for a held unlockable, the units of a consumable, `false`
   * when not held; clients also meet objects such as `{quantity}` (tolerance).
   */
  data: unknown;
};

export type Product = Tolerant<
  Omit<DescribedEntry['product'], 'data' | 'parent_type'> & {
    /** `[]`, or `{"consumable_qty": PACK}` for a consumable. */
    data: unknown;
    parent_type: string;
  }
>;

export interface ProductEntry {
  purchase: Purchase;
  product: Product;
}

export const API_PREFIX = '/services/rest/v1';
export const ENVELOPE_VERSION = 1;
