/** What `saves set` and `saves erase` add to a change's help: the player's auth token. */
import type { ChangeOption } from '../../change-registry.js';

export const TOKEN_HELP = `
The player's auth token: --auth-token T or UDCLI_AUTH_TOKEN. Against the sandbox (the built-in
sandbox profile, or a profile whose site answers the sandbox login) udcli gets one itself: it
logs in to the site as the player and asks the token generator for the profile's game (-v shows
it, redacted). Elsewhere, without a token, it stops with exit 2 before anything is sent.`;

export const TOKEN_OPTION: ChangeOption = {
  flags: '--auth-token <token>',
  description: "the player's auth token for the game (else UDCLI_AUTH_TOKEN; got from the sandbox there)",
};
