/**
 * Parameters travel in the query string or a form body (the platform's SDK sends its PUTs as
 * form-encoded POSTs, a game save's data in the body): the form is kept as text, parsed by the
 * pipeline beside the query (signatures need both as sent). Any other body is read (bounded) and
 * left unread: a POST carrying one is 415, its parameters would be lost.
 */
import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES, FORM_CONTENT_TYPE, UnreadBody } from '../http/request-parameters.js';

export function keepFormBodiesAsText(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    FORM_CONTENT_TYPE,
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => done(null, body),
  );
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES }, (request, body, done) =>
    done(null, (body as Buffer).length === 0 ? undefined : new UnreadBody(request.headers['content-type'] ?? '')),
  );
}
