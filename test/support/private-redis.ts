import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { eventually } from './polling.js';

/**
 * A private redis-server on `port`, answering once it returns. `args` adds options (an
 * append-only file in `--dir`, so a restart keeps the data as a managed Redis would).
 */
export async function startRedis(port: number, args: readonly string[] = []): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...args],
    {
      stdio: 'ignore',
    },
  );
  await eventually(
    () => {
      try {
        execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    },
    10_000,
    'redis to start',
  );
  return child;
}
