/**
 * An HTML body with the connect tag in, read only as far as needed: the page (or its first
 * MAX_INJECTED_HTML_BYTES) is held in memory, injected, and the rest streams on untouched.
 */
import { PassThrough, type Readable } from 'node:stream';
import { MAX_INJECTED_HTML_BYTES, injectConnectTag, injectedContentType } from './inject.js';

interface Prefix {
  head: Buffer;
  ended: boolean;
}

function readPrefix(stream: Readable, max: number): Promise<Prefix> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (ended: boolean) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      if (!ended) stream.pause();
      resolve({ head: Buffer.concat(chunks, size), ended });
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      size += bytes.length;
      if (size >= max) done(false);
    };
    const onEnd = () => done(true);
    const onError = (error: Error) => {
      stream.off('data', onData).off('end', onEnd).off('error', onError);
      reject(error);
    };
    stream.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

export interface InjectedBody {
  body: Buffer | Readable;
  /** The new length, when the old one (or the whole body) is known. */
  length: number | undefined;
  contentType: string;
}

/** `length`: the body's length as sent by its source, if known; `tag`: the connect tag to put in. */
export async function injectedBody(
  stream: Readable,
  contentType: string,
  length: number | undefined,
  tag: string,
): Promise<InjectedBody> {
  const { head, ended } = await readPrefix(stream, MAX_INJECTED_HTML_BYTES);
  const injected = injectConnectTag(head, tag);
  const type = injectedContentType(contentType, head);
  if (ended) return { body: injected, length: injected.length, contentType: type };
  const out = new PassThrough();
  out.write(injected);
  stream.on('error', (error) => out.destroy(error));
  stream.pipe(out);
  stream.resume();
  const added = injected.length - head.length;
  return { body: out, length: length === undefined ? undefined : length + added, contentType: type };
}
