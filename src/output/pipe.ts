/**
 * stdout that may be closed under us (`udcli friends x --all | head`): EPIPE is swallowed,
 * later writes are dropped, and streaming output stops early instead of fetching more pages.
 */
const closed = new WeakSet<NodeJS.WritableStream>();
const guarded = new WeakSet<NodeJS.WritableStream>();

/**
 * Installs the error handler once per stream: EPIPE (the reader went away) and any other write
 * error leave nothing more to do with stdout than to stop writing to it.
 */
export function guardStdout(stream: NodeJS.WritableStream): void {
  if (guarded.has(stream)) return;
  guarded.add(stream);
  stream.on('error', () => {
    closed.add(stream);
  });
}

export function isClosed(stream: NodeJS.WritableStream): boolean {
  return closed.has(stream) || (stream as { destroyed?: boolean }).destroyed === true;
}

/**
 * Writes unless the reader went away; resolves when the stream can take more (backpressure),
 * so a streamed list keeps memory flat.
 */
export function write(stream: NodeJS.WritableStream, text: string): Promise<void> | undefined {
  if (isClosed(stream)) return undefined;
  if (stream.write(text)) return undefined;
  return new Promise<void>((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}
