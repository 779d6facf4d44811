/**
 * A whole number with its thousands grouped as en-US writes them (1,200). Not `toLocaleString`:
 * its first call loads ICU's number formatting, 20-28 ms of a command's start on Node 20, for a
 * comma; it is kept for what is not a safe integer.
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${digits}` : digits;
}
