/**
 * How the commands that take `@FILE` in the user's place say so (issue 33: batches were found
 * only inside option descriptions): the argument's own help, and an example with `--journal`,
 * the option that makes an interrupted run resumable.
 */

/** The uid help's examples name (the demo player of the sandbox). */
export const EXAMPLE_UID = '01e528d59829836fd23b09085b56edab';

/** The `<user>` argument of every declared change (src/cli/change-registry.ts). */
export const BATCH_USER_ARGUMENT =
  'a uid (32 hex digits) or a username; or @FILE for a batch: one uid or username a line (@- reads standard input), with --journal to resume';

/** The example line of a batch run; `rest` is what follows the command (e.g. `LEVEL_10`). */
export function batchExample(command: string, rest: string): string {
  return `  $ udcli ${command} @users.txt ${rest} --journal run.jsonl`;
}

/**
 * Names people try that are no command, each with the one line that points to what they want.
 * `udcli batch` (and its --help) printed the root help with exit 0, which hid where batches are.
 */
export const NOT_COMMANDS: Readonly<Record<string, string>> = {
  batch:
    'there is no batch command; give a command @FILE in place of the user, e.g. udcli achievements inc @users.txt LEVEL_10 --journal run.jsonl',
};
