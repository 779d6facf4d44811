/** The --verbose lines: one per attempt and one per reply. URLs arrive already redacted. */

export function requestLine(method: string, redactedUrl: string): string {
  return `→ ${method} ${redactedUrl}`;
}

export function replyLine(status: number, statusText: string, elapsedMs: number, bytes: number): string {
  return `← ${status}${statusText ? ` ${statusText}` : ''} ${elapsedMs} ms (${bytes} bytes)`;
}

export function failureLine(description: string, elapsedMs: number, sent: boolean): string {
  return `← ${description} after ${elapsedMs} ms (${sent ? 'request was sent' : 'nothing sent'})`;
}

export function retryLine(reason: string, delayMs: number, nextAttempt: number, attempts: number): string {
  return `↻ ${reason}: attempt ${nextAttempt} of ${attempts} in ${delayMs} ms`;
}
