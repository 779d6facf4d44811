/**
 * Why a request ended as it did, in a few words (a refused signature, an injected fault), noted by
 * whoever decided it and read by the request log when the reply has gone out. Keyed by Node's own
 * request object, so a note goes away with its request.
 */
import type { FastifyRequest } from 'fastify';

const reasons = new WeakMap<object, string>();

export function noteReason(request: FastifyRequest, reason: string): void {
  reasons.set(request.raw, reason);
}

export function reasonOf(request: FastifyRequest): string | null {
  return reasons.get(request.raw) ?? null;
}
