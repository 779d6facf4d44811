/**
 * The HTML pages the game host answers with when it cannot give the game's file: they show in
 * the play page's iframe, so they say what was tried and how to fix it. Every value is escaped.
 */
import type { FastifyReply } from 'fastify';
import { escapeHtml, sendHtml } from '../http/html.js';
import { noteReason } from '../http/request-notes.js';

const STYLE =
  'body{margin:0;padding:1.2rem;font:15px/1.45 system-ui,sans-serif;color:#1d2330;background:#fff8e1}' +
  'code{font:13px ui-monospace,Menlo,Consolas,monospace;background:#f1e6c0;padding:.05rem .3rem;border-radius:3px;word-break:break-all}';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'";

/** `body` is HTML already escaped by the caller. */
export function sendHostPage(
  reply: FastifyReply,
  status: number,
  title: string,
  body: string,
  reason: string,
): FastifyReply {
  noteReason(reply.request, reason);
  const html =
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
    `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>\n`;
  return sendHtml(reply, status, CSP, html);
}

const code = (text: string): string => `<code>${escapeHtml(text)}</code>`;

function fixes(gameId: string): string {
  return (
    `<p>Start your game's dev server, or tell the sandbox where it runs:</p>` +
    `<p>${code(`udcli sandbox play ${gameId} --game-url http://localhost:5173/`)}</p>` +
    `<p>or serve a build folder: ${code(`udcli sandbox play ${gameId} --game-dir ./dist`)}</p>`
  );
}

export function upstreamDownPage(reply: FastifyReply, gameId: string, url: string, error: string): FastifyReply {
  return sendHostPage(
    reply,
    502,
    "The game's server did not answer",
    `<p id="upstream-down">The sandbox tried ${code(url)} and got ${code(error)}.</p>${fixes(gameId)}`,
    `game server unreachable: ${error}`,
  );
}

export function untrustedCertificatePage(
  reply: FastifyReply,
  gameId: string,
  url: string,
  error: string,
): FastifyReply {
  return sendHostPage(
    reply,
    502,
    "The game's server has a certificate this machine does not trust",
    `<p id="untrusted-certificate">The sandbox tried ${code(url)} and refused its certificate (${code(error)}).</p>` +
      `<p>If it is your own dev server with a self-signed certificate, tell the sandbox to accept it:</p>` +
      `<p>${code(`udcli sandbox play ${gameId} --game-url ${url} --insecure-game-host`)}</p>` +
      `<p class="muted">A sandbox already running keeps its setting: stop it first (${code('udcli sandbox stop')}).</p>`,
    `game server certificate not trusted: ${error} (--insecure-game-host accepts it)`,
  );
}

export function upstreamSlowPage(reply: FastifyReply, gameId: string, url: string, seconds: number): FastifyReply {
  return sendHostPage(
    reply,
    504,
    "The game's server is too slow",
    `<p id="upstream-slow">The sandbox asked ${code(url)}, which sent no reply headers within ${seconds} s.</p>` +
      `<p>Is your dev server stuck (a breakpoint, a long build)? Reload once it answers.</p>${fixes(gameId)}`,
    `game server sent no headers within ${seconds} s`,
  );
}

export function noSourcePage(reply: FastifyReply, gameId: string): FastifyReply {
  return sendHostPage(
    reply,
    404,
    'No game to serve',
    `<p id="no-source">Game ${code(gameId)} has no usable content URI and no --game-dir or --game-url.</p>${fixes(gameId)}`,
    'no game source',
  );
}

export function gameMissingPage(reply: FastifyReply, gameId: string): FastifyReply {
  return sendHostPage(
    reply,
    404,
    'Game not found',
    `<p>There is no game ${code(gameId)} in this sandbox.</p>`,
    'no such game',
  );
}

export function fileMissingPage(reply: FastifyReply, path: string, root: string): FastifyReply {
  return sendHostPage(
    reply,
    404,
    'File not found',
    `<p id="file-missing">${code(path)} is not in ${code(root)}.</p>`,
    'no such file in the game dir',
  );
}

export function badPathPage(reply: FastifyReply): FastifyReply {
  return sendHostPage(reply, 400, 'Bad path', '<p>The path is not valid URL encoding.</p>', 'bad URL encoding');
}
