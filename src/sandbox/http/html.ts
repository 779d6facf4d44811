/**
 * The sandbox's own HTML pages (the play page, the game host's error pages): escaping, and one
 * way to send a page — never cached, never sniffed as something else, each with its own CSP.
 */
import type { FastifyReply } from 'fastify';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for HTML content and (quoted) attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

export function sendHtml(reply: FastifyReply, status: number, csp: string, html: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', csp)
    .header('x-content-type-options', 'nosniff')
    .send(html);
}
