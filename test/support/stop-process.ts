import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { withDeadline } from '../../src/ports/deadline.js';

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface StopOptions {
  /** A port the process listened on: it must refuse connections once the process is gone. */
  port?: number;
  /** How long the process may take to exit. Default 30 s. */
  timeoutMs?: number;
}

/** Whether nothing accepts connections on 127.0.0.1:`port` any more. */
export function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolve(true);
      else reject(error);
    });
  });
}

/** Whether a process with this pid exists (signal 0 checks without signalling). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error; // EPERM: it exists but belongs to someone else
  }
}

/**
 * Sends `signal` to `child` and resolves with its exit once it is provably gone: its exit was
 * reported, no process has its pid any more, and the port it served (when given) refuses
 * connections. `child` must be the process that does the work, not a wrapper (`npx`, `sh -c`,
 * the `tsx` CLI) that would exit at once and leave the real one running; the port check is what
 * catches a wrapper. Rejects if the process had already exited, does not exit in time, or
 * anything it served is still answering.
 */
export async function stopProcess(
  child: ChildProcess,
  signal: NodeJS.Signals,
  options: StopOptions = {},
): Promise<ProcessExit> {
  const pid = child.pid;
  if (pid === undefined) throw new Error('the process never started');
  if (child.exitCode !== null || child.signalCode !== null) {
    throw new Error(
      `process ${pid} had already exited (${child.exitCode ?? child.signalCode}) before ${signal}`,
    );
  }
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  if (!child.kill(signal)) throw new Error(`could not send ${signal} to process ${pid}`);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const [code, exitSignal] = await withDeadline(exited, timeoutMs, () => {
    throw new Error(`process ${pid} did not exit within ${timeoutMs} ms of ${signal}`);
  });
  if (processExists(pid)) throw new Error(`process ${pid} reported its exit but still exists`);
  if (options.port !== undefined && !(await refusesConnections(options.port))) {
    throw new Error(
      `process ${pid} is gone but port ${options.port} still accepts connections: ` +
        'the signal reached a wrapper, not the process that serves the port',
    );
  }
  return { code, signal: exitSignal };
}
