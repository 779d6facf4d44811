/**
 * What `sandbox info` and `sandbox start` tell the user: URLs, and what the sandbox holds as its
 * database says now (issue 33) — its games and keys (redacted, except the demo's public
 * sandbox-only keys), quests and products, the user count, and each listed user's current
 * progress and holdings — from the description the sandbox gives (GET /_sandbox/contents, or the
 * same function on its database file). Only a sandbox with no database yet is described from the
 * demo data a first start seeds.
 */
import { LOGIN_PATH, PLAY_PATH, TOKEN_GENERATOR_PATH } from '../../../sandbox/constants.js';
import { DEMO_FACTS, DEMO_FRIEND_COUNT, DEMO_HOLDINGS, DEMO_PROGRESS } from '../../../sandbox/seed/demo-data.js';
import { API_PREFIX } from '../../../domain/types.js';
import { DEMO } from '../../../domain/demo.js';
import type { PresentedContents, PresentedKey } from '../../../sandbox/routes/contents.js';
import { printableFields } from '../../../printable.js';
import { redact } from '../../../redact.js';
import { grouped } from '../../../domain/grouped.js';

/** Users listed with their progress when there is no database yet (those of the demo game, as a started one lists). */
const DEMO_LISTED = DEMO_FACTS.users.filter((u) => u.plays.includes(DEMO.game.id));

export interface DescribedUser {
  username: string;
  uid: string;
  premium: boolean;
  /** Null when not known (no database yet). */
  friends: number | null;
  progress: PresentedContents['users'][number]['progress'];
  holdings: PresentedContents['users'][number]['holdings'];
}

export interface SandboxDescription {
  running: boolean;
  pid: number | null;
  url: string;
  base_url: string;
  site_url: string;
  api_prefix: string;
  login: string;
  token_generator: string;
  /** The game the suggested commands are for: the game a client uses by default there. */
  game_id: string;
  /** The play page of that game (spec 1.1): an iframe of its content URI with user_id and auth_token. */
  play_page: string;
  /** The database file, when known (a sandbox of this machine's pid file, or the local file). */
  database: string | null;
  /** What the database holds: the demo data, a data file (path and sha256), nothing. */
  holds: PresentedContents['origin'];
  /** One entry per key: the demo's in full (public sandbox-only values), any other redacted, without a secret. */
  games: Array<{
    id: string;
    name: string;
    launchable: boolean;
    signing: string;
    api_key: string;
    partner: boolean;
    signing_secret: string | null;
    served_from?: ServedFrom | null;
  }>;
  /** The demo's partner key, when the sandbox holds it. */
  partner: { game_id: string; api_key: string; signing_secret: string; note: string } | null;
  users: DescribedUser[];
  user_count: number;
  achievements: Array<{ game_id: string; developer_id: string; name: string; target_value: number }>;
  products: Array<{ game_id: string; sku: string; name: string; type: string; price: string }>;
  /** The games data files brought; several with none the default: `choices`, to pick among. */
  loaded_games: string[];
  choices: string[];
}

/**
 * What the running sandbox serves a game's play page from (its /_sandbox/game-sources): a folder
 * (--game-dir), a URL (--game-url, or the game's content URI); null: nothing yet.
 */
export type ServedFrom = { kind: 'folder'; path: string } | { kind: 'url'; url: string; from_content_uri: boolean };

/** "folder /home/me/game/dist", "http://localhost:5173/ (--game-url)", "nothing yet: …". */
export function servedText(served: ServedFrom | null | undefined, gameId: string): string {
  if (served === undefined) return `its content URI (udcli sandbox game set-uri ${gameId} <url>)`;
  if (served === null)
    return `nothing yet: udcli sandbox game set-uri ${gameId} <url>, or start with --game-dir DIR / --game-url URL`;
  return served.kind === 'folder'
    ? `the folder ${served.path}`
    : `${served.url} (${served.from_content_uri ? 'its content URI' : '--game-url'})`;
}

const PARTNER_NOTE = 'may omit the signature on achievement PUTs (never on products)';

/** The demo's own key behind a redacted one (the sandbox says which keys are the demo's). */
function demoKey(gameId: string, key: PresentedKey): { apiKey: string; signingSecret: string } | undefined {
  if (!key.demo) return undefined;
  const known = key.partner ? [{ ...DEMO_FACTS.partner, id: DEMO_FACTS.partner.gameId }] : DEMO_FACTS.games;
  return known.find((k) => k.id === gameId && redact(k.apiKey) === key.api_key);
}

/** What a first start seeds, for a sandbox with no database yet. */
function demoContents(): PresentedContents {
  const active = DEMO_FACTS.achievements.filter((a) => a.state === 'Active');
  return {
    origin: { kind: 'none', file: null, sha256: null, text: 'no database yet: a first start seeds the demo data' },
    games: DEMO_FACTS.games.map((g) => {
      const achievements = active
        .filter((a) => a.gameId === g.id)
        .map((a) => ({ developer_id: a.developerId, name: a.name, target_value: a.targetValue }));
      const products = DEMO_FACTS.products
        .filter((p) => p.gameId === g.id)
        .map((p) => ({ sku: p.sku, name: p.name, type: p.type, price: p.price }));
      const partner =
        DEMO_FACTS.partner.gameId === g.id
          ? [{ api_key: redact(DEMO_FACTS.partner.apiKey), partner: true, demo: true }]
          : [];
      return {
        id: g.id,
        name: g.name,
        type: 'Game',
        launchable: g.launchable,
        signing: g.signing,
        play_path: `${PLAY_PATH}/${g.id}`,
        keys: [{ api_key: redact(g.apiKey), partner: false, demo: true }, ...partner],
        achievements,
        achievement_count: achievements.length,
        products,
        product_count: products.length,
      };
    }),
    users: DEMO_LISTED.map((u) => ({
      username: u.username,
      uid: u.uid,
      premium: u.premium ?? false,
      friends: u.username === DEMO.user.username ? DEMO_FRIEND_COUNT : 0,
      progress: DEMO_PROGRESS.filter((p) => p.username === u.username).map((p) => {
        const def = DEMO_FACTS.achievements.find((a) => a.gameId === p.gameId && a.developerId === p.developerId);
        return {
          game_id: p.gameId,
          developer_id: p.developerId,
          current_value: p.value,
          target_value: def?.targetValue ?? 0,
          state: p.completedOn ? 'Completed' : 'In Progress',
        };
      }),
      holdings: DEMO_HOLDINGS.filter((h) => h.username === u.username).map((h) => ({
        game_id: h.gameId,
        item: h.sku.split(':')[0]!,
        units: h.quantity,
        skus: [h.sku],
      })),
    })),
    user_count: DEMO_FACTS.userCount,
    primary_game: DEMO.game.id,
    loaded_games: [],
    choices: [],
  };
}

/**
 * The description of the sandbox at `url` from what it holds (`contents`; undefined: no database
 * yet). `running`: the process that answers there, when one does.
 */
export function describeSandbox(
  url: string,
  database: string | null,
  running: { pid: number } | null,
  contents?: PresentedContents,
): SandboxDescription {
  const c = contents ?? demoContents();
  const game = c.primary_game ?? c.games[0]?.id ?? DEMO.game.id;
  const user =
    c.users.find((u) => u.progress.some((p) => p.game_id === game))?.username ?? c.users[0]?.username ?? 'USERNAME';
  let partner: SandboxDescription['partner'] = null;
  const games: SandboxDescription['games'] = [];
  for (const g of c.games) {
    const keys = g.keys.length === 0 ? [{ api_key: '(none)', partner: false, demo: false }] : g.keys;
    for (const k of keys) {
      const demo = demoKey(g.id, k);
      if (demo && k.partner) {
        partner = { game_id: g.id, api_key: demo.apiKey, signing_secret: demo.signingSecret, note: PARTNER_NOTE };
        continue;
      }
      games.push({
        id: g.id,
        name: g.name,
        launchable: g.launchable,
        signing: g.signing,
        api_key: demo?.apiKey ?? k.api_key,
        partner: k.partner,
        signing_secret: demo?.signingSecret ?? null,
      });
    }
  }
  return {
    running: running !== null,
    pid: running?.pid ?? null,
    url,
    base_url: url,
    site_url: url,
    api_prefix: API_PREFIX,
    login: `POST ${url}${LOGIN_PATH}?username=${encodeURIComponent(user)}`,
    token_generator: `GET ${url}${TOKEN_GENERATOR_PATH}/${encodeURIComponent(game)}`,
    game_id: game,
    play_page: `${url}${PLAY_PATH}/${encodeURIComponent(game)}`,
    database,
    holds: c.origin,
    games,
    partner,
    users: c.users.map((u) => ({
      ...u,
      friends: contents === undefined && u.username !== DEMO.user.username ? null : u.friends,
    })),
    user_count: c.user_count,
    achievements: c.games.flatMap((g) => g.achievements.map((a) => ({ game_id: g.id, ...a }))),
    products: c.games.flatMap((g) => g.products.map((p) => ({ game_id: g.id, ...p }))),
    loaded_games: c.loaded_games,
    choices: c.choices,
  };
}

/** The short credentials block printed by `sandbox start`. */
export function credentialLines(url: string): string[] {
  const [game, second] = DEMO_FACTS.games;
  const lines = [`  base/site url   ${url}   (API under ${API_PREFIX})`];
  if (game)
    lines.push(`  game ${game.id}       ${game.name}: api_key ${game.apiKey}  signing secret ${game.signingSecret}`);
  lines.push(`  partner key     ${DEMO_FACTS.partner.apiKey}  signing secret ${DEMO_FACTS.partner.signingSecret}`);
  if (second)
    lines.push(
      `  game ${second.id}       ${second.name}: api_key ${second.apiKey}  signing secret ${second.signingSecret}`,
    );
  lines.push(`  demo user       ${DEMO.user.username}  uid ${DEMO.user.uid}  (${grouped(DEMO_FRIEND_COUNT)} friends)`);
  lines.push(
    `  test token      POST ${url}${LOGIN_PATH}?username=${DEMO.user.username}, then GET ${url}${TOKEN_GENERATOR_PATH}/${DEMO.game.id} with its cookie`,
  );
  lines.push(
    `  play page       ${url}${PLAY_PATH}/${DEMO.game.id}   (show your game there: udcli sandbox game set-uri ${DEMO.game.id} <url>)`,
  );
  return lines;
}

const signingText = (signing: string) => (signing === 'both' ? 'agi or hmac-sha256-v1' : signing);

/** One user's lines: who, then their progress and holdings as the database has them now. */
function userLines(u: DescribedUser, width: number): string[] {
  const facts = [
    u.premium ? 'premium' : '',
    !u.friends ? '' : `${grouped(u.friends)} friend${u.friends === 1 ? '' : 's'}`,
  ]
    .filter(Boolean)
    .join(', ');
  const out = [`  ${u.username.padEnd(width)}  ${u.uid}${facts ? `  ${facts}` : ''}`];
  const pad = ' '.repeat(width + 4);
  const byGame = <T extends { game_id: string }>(list: T[], text: (x: T) => string): string =>
    [...new Set(list.map((x) => x.game_id))]
      .map(
        (game) =>
          `${game}: ${list
            .filter((x) => x.game_id === game)
            .map(text)
            .join(', ')}`,
      )
      .join('; ');
  if (u.progress.length > 0)
    out.push(
      `${pad}quests  ${byGame(u.progress, (p) => `${p.developer_id} ${p.current_value}/${p.target_value} ${p.state}`)}`,
    );
  if (u.holdings.length > 0) {
    const packs = (h: DescribedUser['holdings'][number]) =>
      h.skus.length > 1 || (h.skus[0] !== undefined && h.skus[0] !== h.item) ? ` (${h.skus.join(', ')})` : '';
    out.push(`${pad}holds   ${byGame(u.holdings, (h) => `${h.item} ×${grouped(h.units)}${packs(h)}`)}`);
  }
  return out;
}

/** The description as text; every field through printable() first (a data file names its games and users). */
export function describeText(description: SandboxDescription): string {
  const d = printableFields(description);
  const out: string[] = [];
  out.push(
    d.running
      ? `sandbox running at ${d.url} (pid ${d.pid})`
      : `sandbox not running (start it: udcli sandbox start); default URL ${d.url}`,
  );
  out.push('');
  out.push(`  base url         ${d.base_url}   (API under ${d.api_prefix})`);
  out.push(`  site url         ${d.site_url}`);
  out.push(`  login            ${d.login}`);
  out.push(`  token generator  ${d.token_generator}   (with the login cookie)`);
  out.push(
    `  play page        ${d.play_page}   (serves ${servedText(d.games.find((g) => g.id === d.game_id)?.served_from, d.game_id)})`,
  );
  if (d.database !== null) out.push(`  database         ${d.database}`);
  out.push(`  holds            ${d.holds.text}`);
  out.push('');
  const demoKeys = d.games.some((g) => g.signing_secret !== null);
  out.push(
    d.games.length === 0
      ? 'games: none'
      : `games (${demoKeys ? "the demo's keys are sandbox-only values; any other" : 'api keys'} redacted: your data file has them)`,
  );
  let last = '';
  for (const g of d.games) {
    if (g.id !== last) {
      out.push(`  ${g.id}  ${g.name}${g.launchable ? ' (launchable)' : ''}`);
      if (g.served_from !== undefined) out.push(`        play page from  ${servedText(g.served_from, g.id)}`);
    }
    last = g.id;
    out.push(`        api_key         ${g.api_key}${g.partner ? ' (partner)' : ''}`);
    out.push(`        signing         ${signingText(g.signing)}`);
    // agi needs no secret of the client's; the secret serves hmac-sha256-v1 only.
    if (g.signing_secret !== null && g.signing !== 'agi')
      out.push(`        signing secret  ${g.signing_secret} (hmac-sha256-v1)`);
  }
  if (d.partner !== null) {
    out.push(`  partner key of game ${d.partner.game_id}: ${d.partner.note}`);
    out.push(`        api_key         ${d.partner.api_key}`);
    out.push(`        signing secret  ${d.partner.signing_secret}`);
  }
  out.push('');
  out.push(
    `users (${grouped(d.user_count)} in all${d.users.length < d.user_count ? `; the first ${d.users.length} of game ${d.game_id}` : ''})`,
  );
  const width = Math.max(0, ...d.users.map((u) => u.username.length));
  for (const u of d.users) out.push(...userLines(u, width));
  if (d.achievements.length > 0) {
    out.push('');
    out.push(
      "achievements (developer_id; a user's list holds only the quests they started: In Progress, Completed or Revoked)",
    );
    for (const a of d.achievements)
      out.push(`  game ${a.game_id}  ${JSON.stringify(a.developer_id).padEnd(22)} ${a.name}, target ${a.target_value}`);
  }
  if (d.products.length > 0) {
    out.push('');
    out.push('products (sku)');
    for (const p of d.products)
      out.push(`  game ${p.game_id}  ${JSON.stringify(p.sku).padEnd(22)} ${p.name}, ${p.type}, ${p.price}`);
  }
  out.push('');
  if (d.choices.length > 1) {
    out.push(
      `loaded games ${d.choices.join(', ')}: clients use ${d.game_id} unless told (UDCLI_GAME_ID=${d.choices[0]}, or a profile)`,
    );
  } else {
    out.push(
      `clients use game ${d.game_id} by default (the built-in sandbox profile does: udcli user <username> works as is)`,
    );
  }
  return `${out.join('\n')}\n`;
}
