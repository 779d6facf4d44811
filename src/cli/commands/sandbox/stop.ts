/** `udcli sandbox stop`: stops the sandbox named by the pid file (SIGTERM, then SIGKILL). */
import { UdcliError } from '../../../errors.js';
import { pidFilePath } from '../../../sandbox/paths.js';
import type { Factory } from '../../../ops/factory.js';
import { removePidFile, sandboxState, waitForExit } from './pidfile.js';

export async function stopCommand(factory: Factory): Promise<void> {
  const { stderr, env } = factory.io;
  const pidPath = pidFilePath(env);
  const current = await sandboxState(env);
  switch (current.state) {
    case 'none':
      stderr.write('no sandbox is running\n');
      return;
    case 'stale':
      removePidFile(pidPath, current.record.pid);
      stderr.write(`no sandbox is running (removed the stale pid file of pid ${current.record.pid})\n`);
      return;
    case 'unresponsive':
      // The pid may have been reused by another program: do not signal it blindly.
      throw new UdcliError(
        `process ${current.record.pid} from ${pidPath} does not answer as the sandbox at ${current.record.url}`,
        {
          hint: `if it is a hung sandbox, kill ${current.record.pid}; if it is another program, delete ${pidPath}`,
        },
      );
    case 'running': {
      const { pid, url } = current.record;
      process.kill(pid, 'SIGTERM');
      if (!(await waitForExit(pid, 10_000))) {
        process.kill(pid, 'SIGKILL');
        await waitForExit(pid, 5_000);
      }
      removePidFile(pidPath, pid);
      stderr.write(`stopped the sandbox at ${url} (pid ${pid})\n`);
      return;
    }
  }
}
