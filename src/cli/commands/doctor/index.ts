/** `udcli doctor`: checks config, reachability, api key, signing and clock. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { addVerb, type Verb } from '../../verb.js';

export const DOCTOR: Verb = {
  name: 'doctor',
  description:
    "Check the config file, the active profile, reachability, the api key and that its game is the profile's game_id, signing and the clock",
  after: `
Exits 1 when a check fails; warnings do not fail. Under signing_scheme hmac-sha256-v1 the
signing check sends one signed request that changes nothing (a reset for a user that does
not exist): a wrong signing_secret fails it. Under a production profile doctor sends no such
request: it says the check was skipped; --check-signing sends it on purpose, behind the same
typed confirmation as any production change.

Examples:
  $ udcli doctor
  $ udcli --profile live doctor --json
  $ udcli --profile live doctor --check-signing`,
  options: [
    ['--check-signing', "under a production profile: send the signing check's signed request too (asks first)"],
  ],
  run: async (factory, opts: { checkSigning?: boolean }) => (await import('./check.js')).run(factory, opts),
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, DOCTOR);
}
