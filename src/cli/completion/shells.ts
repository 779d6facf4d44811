/** The shells `udcli completion` writes scripts for (kept apart so registering loads nothing else). */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];
