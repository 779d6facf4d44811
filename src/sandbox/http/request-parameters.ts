/**
 * A request's parameters (SERVICE.md: Parameters in the query or a form body): the platform reads
 * them from the query and from an `application/x-www-form-urlencoded` body alike, so the pipeline
 * builds one set from both and endpoints never know where a value came from. The signature
 * checks still get each part as sent (agi signs the body's values apart from the query's).
 */
import { fail, shown } from './failure.js';
import { formBodyLimits, parseQuery, Query } from './query.js';

/** Bodies are bounded: a form body's value may be long (a game save's `data`, up to 256 KiB). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export { FORM_CONTENT_TYPE } from '../../domain/contract.js';

/** What the app's catch-all body parser leaves for a non-empty body it does not read. */
export class UnreadBody {
  constructor(readonly contentType: string) {}
}

export interface RequestParameters {
  /** The query's pairs, exactly as sent. */
  query: Query;
  /** The form body's fields, exactly as sent; null when there is none. */
  body: Query | null;
  /** Both, as endpoints see them: the query's pairs, then the body's (one given in both counts once). */
  merged: Query;
}

/**
 * The query and the body merged. A name in both with different values is refused (the sandbox
 * never guesses which was meant); with the same value it counts once. A POST with a body that
 * is not a form is 415: its parameters would be lost, and the client would not know.
 */
export function requestParameters(rawQuery: string, body: unknown, httpMethod: string): RequestParameters {
  const query = parseQuery(rawQuery);
  if (body instanceof UnreadBody) {
    if (httpMethod === 'POST') throw fail.unsupportedBody(body.contentType);
    return { query, body: null, merged: query };
  }
  if (typeof body !== 'string' || body === '') return { query, body: null, merged: query };
  const form = parseQuery(body, formBodyLimits(BODY_LIMIT_BYTES));
  const merged: Array<readonly [string, string]> = [...query.pairs];
  for (const pair of form.pairs) {
    const [name, value] = pair;
    const inQuery = query.pairs.filter(([n]) => n === name);
    if (inQuery.length === 0) merged.push(pair);
    else if (inQuery.some(([, v]) => v !== value)) throw fail.ambiguousParameter(shown(name, 32));
  }
  return { query, body: form, merged: new Query(merged) };
}
