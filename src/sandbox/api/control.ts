/**
 * The sandbox's control routes (`/_sandbox/...`) called over HTTP, for a handle whose sandbox runs in another
 * process: a child (`startSandbox({ process: true })`) or one a test runner's setup started (`connectSandbox`).
 */

/** A control route's failure, with the sandbox's own message. */
export class SandboxControlError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'SandboxControlError';
  }
}

/** Calls a control route (`path` under /_sandbox) with form fields, and reads its JSON reply. */
export async function control<T>(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  fields?: Record<string, string>,
): Promise<T> {
  const body = fields === undefined ? undefined : new URLSearchParams(fields).toString();
  const reply = await fetch(`${url}/_sandbox${path}`, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  });
  const text = await reply.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!reply.ok) {
    const message = (json as { message?: unknown } | undefined)?.message;
    throw new SandboxControlError(
      `the sandbox at ${url} answered ${method} /_sandbox${path} with ${reply.status}: ${typeof message === 'string' ? message : text.slice(0, 200)}`,
      reply.status,
    );
  }
  return json as T;
}
