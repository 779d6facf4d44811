/**
 * A game directory served as files. A path is decoded one segment at a time; a segment that is
 * `..`, or holds a slash, a backslash or NUL once decoded, is refused, and the file found is
 * resolved through its symlinks and must still lie inside the (resolved) root. Files stream from
 * disk; only an HTML page to inject into is read into memory (bounded, see body.ts).
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { splitTarget } from '../http/query.js';
import { injectedBody, type InjectedBody } from './body.js';
import { badPathPage, fileMissingPage } from './pages.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.bmp': 'image/bmp',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.swf': 'application/x-shockwave-flash',
  '.data': 'application/octet-stream',
  '.bin': 'application/octet-stream',
};

export function contentTypeOf(path: string): string {
  return TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** The decoded segments of `rest` (the path under the game's root, as sent), or null when not a safe path. */
export function safeSegments(rest: string): string[] | null | 'bad-encoding' {
  const segments: string[] = [];
  for (const raw of rest.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return 'bad-encoding';
    }
    if (segment === '..' || /[/\\\0]/.test(segment)) return null;
    if (segment !== '' && segment !== '.') segments.push(segment);
  }
  return segments;
}

const inside = (path: string, root: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** The real path of `candidate` if it exists inside `realRoot`, else null. */
async function contained(candidate: string, realRoot: string): Promise<string | null> {
  try {
    const real = await realpath(candidate);
    return inside(real, realRoot) ? real : null;
  } catch {
    return null;
  }
}

export interface DirSource {
  root: string;
  connect: boolean;
}

/** How a reply may end for HEAD: the body's length only, its bytes dropped (Node sends none for HEAD anyway). */
export function sendInjected(request: FastifyRequest, reply: FastifyReply, body: InjectedBody): FastifyReply {
  reply.header('content-type', body.contentType);
  if (body.length === undefined) reply.removeHeader('content-length');
  else reply.header('content-length', String(body.length));
  if (request.method !== 'HEAD') return reply.send(body.body);
  if (!Buffer.isBuffer(body.body)) body.body.destroy();
  return reply.send();
}

/** Answers `rest` (the path under the root as sent, no query) from the directory. */
export async function serveFromDir(
  request: FastifyRequest,
  reply: FastifyReply,
  source: DirSource,
  rest: string,
  tag: string,
): Promise<FastifyReply> {
  const segments = safeSegments(rest);
  if (segments === 'bad-encoding') return badPathPage(reply);
  const shownPath = `/${rest}`;
  if (segments === null) return fileMissingPage(reply, shownPath, source.root);
  const realRoot = await realpath(source.root).catch(() => null);
  if (realRoot === null) return fileMissingPage(reply, shownPath, source.root);
  let file = await contained(join(realRoot, ...segments), realRoot);
  if (file === null) return fileMissingPage(reply, shownPath, source.root);
  let info = await stat(file);
  if (info.isDirectory()) {
    if (rest !== '' && !rest.endsWith('/')) {
      // Relative URLs in its index.html resolve against the folder only with the slash.
      const { path, query } = splitTarget(request.url);
      return reply
        .code(301)
        .header('location', `${path}/${query === '' ? '' : `?${query}`}`)
        .send();
    }
    file = await contained(join(file, 'index.html'), realRoot);
    if (file === null)
      return fileMissingPage(reply, `${shownPath}${shownPath.endsWith('/') ? '' : '/'}index.html`, source.root);
    info = await stat(file);
  }
  if (!info.isFile()) return fileMissingPage(reply, shownPath, source.root);

  const type = contentTypeOf(file);
  reply.header('cache-control', 'no-cache').header('last-modified', info.mtime.toUTCString());
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return reply
      .code(405)
      .header('allow', 'GET, HEAD')
      .header('content-type', 'text/plain; charset=utf-8')
      .send('a game folder answers GET and HEAD only\n');
  }
  const html = type.startsWith('text/html');
  if (!(html && source.connect)) {
    reply.code(200).header('content-type', type).header('content-length', String(info.size));
    return request.method === 'HEAD' ? reply.send() : reply.send(createReadStream(file));
  }
  // For HEAD too, so its content-length is the injected page's (Node sends no body for HEAD).
  const injected = await injectedBody(createReadStream(file), type, info.size, tag);
  return sendInjected(request, reply.code(200), injected);
}
