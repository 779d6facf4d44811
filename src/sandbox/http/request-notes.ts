/**
 * Why a request ended as it did, in a few words (a refused signature, an injected fault), noted by
 * whoever decided it and read by the request log when the reply has gone out. Keyed by Node's own
 * request object, so a note goes away with its request.
 *
 * Also the two halves of the agi handshake, so the log can show them as one request: the session
 * of the challenge an unsigned request was answered with, and the session a request was signed
 * with. Sessions stay in memory here, never in a line.
 */
import type { FastifyRequest } from 'fastify';

/** One object a request, made by the first note: most requests get none, and a read costs one lookup. */
interface Notes {
  reason?: string;
  challenge?: string;
  signedWith?: string;
}

const notes = new WeakMap<object, Notes>();

function notesOf(request: FastifyRequest): Notes {
  let found = notes.get(request.raw);
  if (found === undefined) {
    found = {};
    notes.set(request.raw, found);
  }
  return found;
}

export function noteReason(request: FastifyRequest, reason: string): void {
  notesOf(request).reason = reason;
}

export function reasonOf(request: FastifyRequest): string | null {
  return notes.get(request.raw)?.reason ?? null;
}

/** The request was answered by the plain challenge (unsigned, "signature required") with this session. */
export function noteChallenge(request: FastifyRequest, session: string): void {
  notesOf(request).challenge = session.toLowerCase();
}

/** The request carried this agi session: it may be the signed retry of a challenge. */
export function noteSignedWith(request: FastifyRequest, session: string): void {
  notesOf(request).signedWith = session.toLowerCase();
}

/** Most requests are no part of a handshake: one shared answer for them. */
const NO_HANDSHAKE = Object.freeze({});

export function handshakeOf(request: FastifyRequest): { challenge?: string; signedWith?: string } {
  const found = notes.get(request.raw);
  const challenge = found?.challenge;
  const session = found?.signedWith;
  if (challenge === undefined && session === undefined) return NO_HANDSHAKE;
  return {
    ...(challenge === undefined ? {} : { challenge }),
    ...(session === undefined ? {} : { signedWith: session }),
  };
}
