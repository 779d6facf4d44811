/** `udcli completion <shell>`: the script for one shell, which asks `udcli __complete` what to offer. */
export { completionScript } from './scripts.js';
export { SHELLS, type Shell } from './shells.js';
