/** Waiting for Ctrl-C (and its friends), for the verbs that run until the user stops them. */
import type { IOStreams } from '../../../ops/factory.js';

export function waitForSignal(io: Pick<IOStreams, 'onSignals'>): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = io.onSignals(['SIGINT', 'SIGTERM', 'SIGHUP'], (signal) => {
      stop();
      resolve(signal);
    });
  });
}
