/** Records (repositories) → resource shapes of the spec (section 2). */
import type {
  AchievementDefinition,
  AchievementUpdate,
  AuthenticatedUser,
  ProductEntry,
  Purchase,
  User,
  UserAchievement,
} from '../domain/types.js';
import type { DefinitionRecord, ListedAchievement, ProgressResult } from './repositories/achievements.js';
import type { HeldProduct } from './repositories/products.js';
import type { UserRecord } from './repositories/users.js';
import { NOT_COMPLETED_DATE } from './domain/achievements.js';
import { formatDateTime } from './time.js';

export const AVATAR_SIZE = 96;
/** avatar_med and avatar_lg (SERVICE.md: Users). */
export const AVATAR_MED_SIZE = 100;
export const AVATAR_LG_SIZE = 200;

export function avatarUrl(origin: string, uid: string, size: number = AVATAR_SIZE): string {
  return `${origin}/avatars/${uid}.svg?size=${size}`;
}

export interface UserView {
  /** Full fields (a valid api_key) or only uid, username, avatar. */
  full: boolean;
  /** plays_game for the key's launchable game; null leaves the field out. */
  playsGame: boolean | null;
  origin: string;
}

export function presentUser(user: UserRecord, view: UserView): User {
  const out: User = { uid: user.uid, username: user.username, avatar: avatarUrl(view.origin, user.uid) };
  if (view.full) {
    out.avatar_med = avatarUrl(view.origin, user.uid, AVATAR_MED_SIZE);
    out.avatar_lg = avatarUrl(view.origin, user.uid, AVATAR_LG_SIZE);
    out.gender = user.gender;
    out.birthday = user.birthday;
    out.premium = user.premium;
    out.email = user.email;
    out.created_on = String(user.createdOn);
  }
  if (view.playsGame !== null) out.plays_game = view.playsGame ? '1' : '0';
  return out;
}

export function presentAuthenticated(user: UserRecord): AuthenticatedUser {
  return { uid: user.uid, username: user.username };
}

export function presentDefinition(def: DefinitionRecord): AchievementDefinition {
  return {
    id: def.id,
    developer_id: def.developerId,
    parent_id: def.parentId,
    type: def.parentType,
    name: def.name,
    description: def.description,
    admin_description: def.adminDescription,
    icon: def.icon,
    start_value: def.startValue,
    target_value: def.targetValue,
    score: def.score,
    state: def.state,
    completion_count: def.completionCount,
    created_date: def.createdOn,
    updated_date: def.updatedOn,
    tags: def.tags,
  };
}

/** `Y-m-d H:i:s` in UTC, or the platform's zero date for a quest not completed (never null). */
export function completedDate(completedOn: number | null): string {
  return completedOn === null ? NOT_COMPLETED_DATE : formatDateTime(completedOn);
}

export function presentUserAchievement(r: ListedAchievement): UserAchievement {
  return {
    id: r.id,
    uid: r.uid,
    achievement_id: r.achievementId,
    parent_id: r.parentId,
    current_value: r.currentValue,
    percent_complete: r.percentComplete,
    state: r.state,
    started_date: formatDateTime(r.startedOn),
    completed_date: completedDate(r.completedOn),
    updated_date: formatDateTime(r.updatedOn),
    developer_id: r.developerId,
    type: r.parentType,
    name: r.name,
    target_value: r.targetValue,
  };
}

export function presentUpdate(r: ProgressResult): AchievementUpdate {
  return {
    state: r.state,
    current_value: r.currentValue,
    percent_complete: r.percentComplete,
    developer_id: r.developerId,
    score_awarded: r.scoreAwarded,
    already_completed: r.alreadyCompleted,
    completed_date: completedDate(r.completedOn),
  };
}

export function price(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * `purchase` of an entry (SERVICE.md: Products): a held unlockable `true` (the platform's
 * data-objects page), a consumable its units, else false.
 */
function purchaseOf(held: HeldProduct, message: string): Purchase {
  if (held.quantity < 1) return { success: false, data: false, message };
  return { success: true, data: held.product.kind === 'consumable' ? held.quantity : true, message };
}

export function presentEntry(held: HeldProduct, message: string): ProductEntry {
  const p = held.product;
  return {
    purchase: purchaseOf(held, message),
    product: {
      id: p.id,
      sku: p.sku,
      name: p.name,
      description: p.description,
      type: p.type,
      price: price(p.priceCents),
      display_order: p.displayOrder,
      data: p.data,
      media: { image: p.image },
      status: p.status,
      parent_type: p.parentType.toLowerCase(),
      sold: p.sold,
      created_on: formatDateTime(p.createdOn),
      updated_on: formatDateTime(p.updatedOn),
    },
  };
}
