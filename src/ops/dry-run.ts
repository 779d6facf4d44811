/**
 * `--dry-run` for one user (docs/CLI.md "Batch mode"): the request the change would send, built and
 * signed as it would be (secrets redacted, agi's session and key as placeholders), and the change
 * expected from the state read now (each change type says what it expects; src/batch/change.ts
 * runs it). Only reads are sent.
 */
import { createEndpoints } from '../client/endpoints.js';
import type { ApiClient, PreparedRequest, RequestSpec } from '../client/types.js';
import type { Factory } from './factory.js';
import { jsonText } from '../printable.js';

/** Stops a change at its request: thrown by the dry endpoints instead of sending. */
class Captured {
  constructor(readonly spec: RequestSpec) {}
}

/** The request `change` would send, prepared by the real client (nothing is sent). */
export async function requestOf(
  client: ApiClient,
  change: (dry: ApiClient) => Promise<unknown>,
): Promise<PreparedRequest> {
  const stop = async (spec: RequestSpec): Promise<never> => {
    throw new Captured(spec);
  };
  const dry = {
    ...createEndpoints({ request: stop, call: stop }),
    prepare: client.prepare,
    request: stop,
    close: async () => undefined,
  } as ApiClient;
  try {
    await change(dry);
  } catch (caught) {
    if (caught instanceof Captured) return client.prepare(caught.spec);
    throw caught;
  }
  throw new Error('dry run: the change made no request');
}

/** Prints the dry run: a table format as three lines, other formats as one JSON object. */
export async function printDryRun(
  factory: Pick<Factory, 'output'>,
  request: PreparedRequest,
  expected: string,
): Promise<void> {
  const out = await factory.output();
  const signed = request.placeholderChallenge
    ? ' (signed with the session and key the server hands out)'
    : request.canonical
      ? ' (signed)'
      : '';
  if (out.format === 'table') {
    out.text('Dry run: nothing that changes state was sent.');
    out.text(`Request:  ${request.method} ${request.redactedUrl}${signed}`);
    out.text(`Expected: ${expected}`);
    return;
  }
  out.text(jsonText({ dry_run: true, request: { method: request.method, url: request.redactedUrl }, expected }));
}
