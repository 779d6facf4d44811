/**
 * A proxy in front of the sandbox that loses replies: every request is forwarded; for those
 * `loses(request)` picks, the sandbox's reply is read in full (so the change is made) and then
 * the client's connection is destroyed instead of answering. That is a reply lost on the way
 * back, the one fault a real server cannot be asked to produce.
 */
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenByProxy {
  method: string;
  /** Path and query as received. */
  url: string;
  params: URLSearchParams;
  lost: boolean;
}

export interface LostReplyProxy {
  url: string;
  seen: SeenByProxy[];
  close(): Promise<void>;
}

/** agi's signed attempt: the one request of a signed change that may change state. */
export const signedAgiRequest = (req: SeenByProxy): boolean => req.params.has('sig') && req.params.has('session');

export interface LossOptions {
  /** Lose the request itself instead (never forwarded: nothing is changed), for those `loses` picks. */
  beforeForwarding?: boolean;
  /** Runs after a lost request reached the sandbox, before the connection is cut (someone else's change meanwhile). */
  meanwhile?: () => Promise<void>;
}

export async function startLostReplyProxy(
  target: string,
  loses: (req: SeenByProxy) => boolean,
  options: LossOptions | (() => LossOptions) = {},
): Promise<LostReplyProxy> {
  const optionsNow = () => (typeof options === 'function' ? options() : options);
  const upstream = new URL(target);
  const seen: SeenByProxy[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const url = req.url ?? '/';
    const entry: SeenByProxy = {
      method: req.method ?? '',
      url,
      params: new URL(url, 'http://x').searchParams,
      lost: false,
    };
    entry.lost = loses(entry);
    seen.push(entry);
    const { beforeForwarding, meanwhile } = optionsNow();
    if (entry.lost && beforeForwarding) {
      req.resume();
      req.on('end', () => req.socket.destroy());
      return;
    }
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: url,
        headers: { ...req.headers, host: upstream.host },
      },
      (reply) => {
        const chunks: Buffer[] = [];
        reply.on('data', (c: Buffer) => chunks.push(c));
        reply.on('end', () => {
          if (entry.lost) {
            if (meanwhile) void meanwhile().finally(() => req.socket.destroy());
            else req.socket.destroy();
            return;
          }
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          res.end(Buffer.concat(chunks));
        });
      },
    );
    forward.on('error', () => req.socket.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
