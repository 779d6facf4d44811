import type { ParentType } from '../spec/types.js';

export type SigningScheme = 'hmac-sha256-v1' | 'none';

/** A profile as stored in the config file (snake_case keys, as in cli.md). */
export interface StoredProfile {
  base_url?: string;
  site_url?: string;
  api_key?: string;
  signing_secret?: string;
  signing_scheme?: SigningScheme;
  game_id?: string;
  type?: ParentType;
  cookie?: string;
  production?: boolean;
}

export type SettingSource = 'flag' | 'env' | 'profile' | 'default';

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
  gameId?: string;
  type: ParentType;
  cookie?: string;
  production: boolean;
  sources: Partial<Record<keyof StoredProfile, SettingSource>>;
}
