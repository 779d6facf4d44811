/**
 * POSIX shell quoting for the command lines udcli prints and logs (receipts' undo, the audit
 * log's command), so a line pasted into a shell runs exactly as shown: `SPEED RUN/100%` becomes
 * `'SPEED RUN/100%'`. Plain words stay unquoted to keep the lines readable.
 */

/** One argument, single-quoted unless it holds only characters no shell treats specially. */
export function shellQuote(arg: string): string {
  return arg !== '' && /^[\w@%+=:,./…-]+$/u.test(arg) ? arg : `'${arg.replaceAll("'", `'\\''`)}'`;
}

/** `udcli a b 'c d'`: the argument list as one pasteable command. */
export function shellCommand(argv: readonly string[]): string {
  return ['udcli', ...argv].map(shellQuote).join(' ');
}
