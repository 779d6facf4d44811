/** A sandbox data file as read (after the schema check): see schema.ts for every field. */
import type { GameSigning, ParentType, QuestState } from '../../domain/contract.js';

export interface DataKey {
  api_key: string;
  signing_secret?: string;
  partner?: boolean;
  label?: string;
}

export interface DataAchievement {
  developer_id: string;
  name: string;
  description?: string;
  admin_description?: string;
  icon?: string;
  start_value?: number;
  target_value: number;
  score?: number;
  state?: 'Active' | 'Inactive';
  tags?: Record<string, string>;
}

export interface DataProduct {
  sku: string;
  type: 'unlockable' | 'consumable';
  packs?: number[];
  name: string;
  description?: string;
  price: string;
  display_order?: number;
  status?: string;
  image?: string;
}

export interface DataGame {
  id: string;
  type?: ParentType;
  name: string;
  launchable?: boolean;
  content_uri?: string | null;
  signing?: GameSigning;
  keys?: DataKey[];
  achievements?: DataAchievement[];
  products?: DataProduct[];
}

/**
 * A quest's progress given in full: its state and dates (the platform's words). A bare number is
 * the current value alone, its state following from it (Completed at the target, else In Progress).
 */
export interface DataProgress {
  value: number;
  state?: QuestState;
  started_date?: string | number;
  /** A date-time, or `0000-00-00 00:00:00` (not completed). */
  completed_date?: string | number;
}

export interface DataUser {
  username: string;
  uid?: string;
  gender?: string;
  created_on?: string | number;
  birthday?: string;
  premium?: boolean;
  /** Shown with a valid api_key (SERVICE.md: Users). */
  email?: string;
  friends?: string[];
  plays?: string[];
  /** Game id → developer_id → the current value, or the progress in full. */
  progress?: Record<string, Record<string, number | DataProgress>>;
  holdings?: Record<string, Record<string, number>>;
  /** Game id → key → the saved text (SERVICE.md: Game saves). */
  saves?: Record<string, Record<string, string>>;
}

export interface DataFile {
  $schema?: string;
  games?: DataGame[];
  users?: DataUser[];
}
