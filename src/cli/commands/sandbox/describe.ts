/**
 * What `sandbox info` and `sandbox start` tell the user: URLs, what the sandbox holds, and the
 * demo credentials — or, for a studio's data, its games (keys redacted: the file has them), users.
 */
import { LOGIN_PATH, PLAY_PATH, TOKEN_GENERATOR_PATH } from '../../../sandbox/constants.js';
import { DEMO_FACTS, DEMO_FRIEND_COUNT } from '../../../sandbox/seed/demo-data.js';
import { API_PREFIX } from '../../../domain/types.js';
import { DEMO } from '../../../domain/demo.js';
import type { PresentedContents } from '../../../sandbox/routes/contents.js';
import { printableFields } from '../../../printable.js';

export interface SandboxDescription {
  running: boolean;
  pid: number | null;
  url: string;
  base_url: string;
  site_url: string;
  api_prefix: string;
  login: string;
  token_generator: string;
  /** The game the suggested commands are for: the demo's 1001, or a data file's primary (first) game. */
  game_id: string;
  /** The play page of that game (spec 1.1): an iframe of its content URI with user_id and auth_token. */
  play_page: string;
  database: string;
  /** What the database holds: the demo data, a data file (path and sha256), nothing. */
  holds: PresentedContents['origin'];
  /** The demo's keys in full (public sandbox-only values); a data file's redacted, without secrets. */
  games: Array<{ id: string; name: string; launchable: boolean; signing: string; api_key: string; signing_secret: string | null }>;
  partner: { game_id: string; api_key: string; signing_secret: string; note: string } | null;
  users: Array<{ username: string; uid: string; note: string }>;
  generated_users: string;
  user_count: number;
  achievements: Array<{ game_id: string; developer_id: string; name: string; target_value: number; state: string }>;
  products: Array<{ game_id: string; sku: string; name: string; type: string; price: string }>;
}

const DEMO_HOLDS: PresentedContents['origin'] = { kind: 'demo', file: null, sha256: null, text: 'the demo data' };

export function describeSandbox(url: string, database: string, running: { pid: number } | null, contents?: PresentedContents): SandboxDescription {
  if (contents !== undefined && contents.origin.kind !== 'demo') return describeLoaded(url, database, running, contents);
  return {
    running: running !== null,
    pid: running?.pid ?? null,
    url,
    base_url: url,
    site_url: url,
    api_prefix: API_PREFIX,
    login: `POST ${url}${LOGIN_PATH}?username=${DEMO.user.username}`,
    token_generator: `GET ${url}${TOKEN_GENERATOR_PATH}/${DEMO.game.id}`,
    game_id: DEMO.game.id,
    play_page: `${url}${PLAY_PATH}/${DEMO.game.id}`,
    database,
    holds: contents?.origin ?? DEMO_HOLDS,
    games: DEMO_FACTS.games.map((g) => ({
      id: g.id,
      name: g.name,
      launchable: g.launchable,
      signing: g.signing,
      api_key: g.apiKey,
      signing_secret: g.signingSecret,
    })),
    partner: {
      game_id: DEMO_FACTS.partner.gameId,
      api_key: DEMO_FACTS.partner.apiKey,
      signing_secret: DEMO_FACTS.partner.signingSecret,
      note: 'may omit the signature on achievement PUTs (never on products)',
    },
    users: DEMO_FACTS.users.map((u) => ({ username: u.username, uid: u.uid, note: u.note })),
    generated_users: DEMO_FACTS.generatedUsers,
    user_count: DEMO_FACTS.userCount,
    achievements: DEMO_FACTS.achievements.map((a) => ({
      game_id: a.gameId,
      developer_id: a.developerId,
      name: a.name,
      target_value: a.targetValue,
      state: a.state,
    })),
    products: DEMO_FACTS.products.map((p) => ({ game_id: p.gameId, sku: p.sku, name: p.name, type: p.type, price: p.price })),
  };
}

/** A studio's data (or an empty database): its games and keys (redacted), its first users. */
function describeLoaded(url: string, database: string, running: { pid: number } | null, contents: PresentedContents): SandboxDescription {
  const game = contents.primary_game ?? contents.games[0]?.id ?? DEMO.game.id;
  const user = contents.users[0]?.username ?? 'USERNAME';
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
    holds: contents.origin,
    games: contents.games.flatMap((g) =>
      (g.keys.length === 0 ? [{ api_key: '(none)', partner: false }] : g.keys).map((k) => ({
        id: g.id,
        name: g.name,
        launchable: true,
        signing: g.signing,
        api_key: `${k.api_key}${k.partner ? ' (partner)' : ''}`,
        signing_secret: null,
      })),
    ),
    partner: null,
    users: contents.users.map((u) => ({ username: u.username, uid: u.uid, note: '' })),
    generated_users: '',
    user_count: contents.user_count,
    achievements: [],
    products: [],
  };
}

/** The short credentials block printed by `sandbox start`. */
export function credentialLines(url: string): string[] {
  const [game, second] = DEMO_FACTS.games;
  const lines = [`  base/site url   ${url}   (API under ${API_PREFIX})`];
  if (game) lines.push(`  game ${game.id}       ${game.name}: api_key ${game.apiKey}  signing secret ${game.signingSecret}`);
  lines.push(`  partner key     ${DEMO_FACTS.partner.apiKey}  signing secret ${DEMO_FACTS.partner.signingSecret}`);
  if (second) lines.push(`  game ${second.id}       ${second.name}: api_key ${second.apiKey}  signing secret ${second.signingSecret}`);
  lines.push(`  demo user       ${DEMO.user.username}  uid ${DEMO.user.uid}  (${DEMO_FRIEND_COUNT.toLocaleString('en-US')} friends)`);
  lines.push(`  test token      POST ${url}${LOGIN_PATH}?username=${DEMO.user.username}, then GET ${url}${TOKEN_GENERATOR_PATH}/${DEMO.game.id} with its cookie`);
  lines.push(`  play page       ${url}${PLAY_PATH}/${DEMO.game.id}   (show your game there: udcli sandbox game set-uri ${DEMO.game.id} <url>)`);
  return lines;
}

/** The description as text; every field through printable() first (a data file names its games and users). */
export function describeText(description: SandboxDescription): string {
  const d = printableFields(description);
  const out: string[] = [];
  out.push(d.running ? `sandbox running at ${d.url} (pid ${d.pid})` : `sandbox not running (start it: udcli sandbox start); default URL ${d.url}`);
  out.push('');
  out.push(`  base url         ${d.base_url}   (API under ${d.api_prefix})`);
  out.push(`  site url         ${d.site_url}`);
  out.push(`  login            ${d.login}`);
  out.push(`  token generator  ${d.token_generator}   (with the login cookie)`);
  out.push(`  play page        ${d.play_page}   (iframes the content URI: udcli sandbox game set-uri ${d.game_id} <url>)`);
  out.push(`  database         ${d.database}`);
  out.push(`  holds            ${d.holds.text}`);
  out.push('');
  if (d.partner === null) return `${[...out, ...loadedText(d)].join('\n')}\n`;
  out.push('games (sandbox-only demo credentials)');
  for (const g of d.games) {
    out.push(`  ${g.id}  ${g.name}${g.launchable ? ' (launchable)' : ''}`);
    out.push(`        api_key         ${g.api_key}`);
    out.push(`        signing         ${g.signing === 'both' ? 'agi or hmac-sha256-v1' : g.signing}`);
    // agi needs no secret of the client's; the secret serves hmac-sha256-v1 only.
    if (g.signing !== 'agi') out.push(`        signing secret  ${g.signing_secret} (hmac-sha256-v1)`);
  }
  out.push(`  partner key of game ${d.partner.game_id}: ${d.partner.note}`);
  out.push(`        api_key         ${d.partner.api_key}`);
  out.push(`        signing secret  ${d.partner.signing_secret}`);
  out.push('');
  out.push(`users (${d.user_count.toLocaleString('en-US')} in all; the others are ${d.generated_users})`);
  const width = Math.max(...d.users.map((u) => u.username.length));
  for (const u of d.users) out.push(`  ${u.username.padEnd(width)}  ${u.uid}  ${u.note}`);
  out.push('  each has the email USERNAME@example.test (a reserved test domain), shown with a valid api_key');
  out.push('');
  out.push('achievements (developer_id; a user\'s list holds only the quests they started: In Progress, Completed or Revoked)');
  for (const a of d.achievements) {
    out.push(`  game ${a.game_id}  ${JSON.stringify(a.developer_id).padEnd(22)} ${a.name}, target ${a.target_value}${a.state === 'Active' ? '' : ` (${a.state}, hidden)`}`);
  }
  out.push('');
  out.push('products (sku)');
  for (const p of d.products) out.push(`  game ${p.game_id}  ${JSON.stringify(p.sku).padEnd(22)} ${p.name}, ${p.type}, ${p.price}`);
  return `${out.join('\n')}\n`;
}

/** The games, keys and users of a studio's data (its keys redacted: the data file has them in full). */
function loadedText(d: SandboxDescription): string[] {
  const out: string[] = [];
  out.push(d.games.length === 0 ? 'games: none' : 'games (api keys redacted: your data file has them)');
  for (const g of d.games) out.push(`  ${g.id}  ${g.name}  api_key ${g.api_key}  signing ${g.signing === 'both' ? 'agi or hmac-sha256-v1' : g.signing}`);
  out.push('');
  out.push(`users (${d.user_count.toLocaleString('en-US')} in all${d.users.length < d.user_count ? `; the first ${d.users.length}` : ''})`);
  const width = Math.max(0, ...d.users.map((u) => u.username.length));
  for (const u of d.users) out.push(`  ${u.username.padEnd(width)}  ${u.uid}`);
  out.push('');
  out.push('the built-in sandbox profile uses the first game with a key: udcli user <username> works as is');
  return out;
}
