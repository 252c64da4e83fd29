/**
 * Child-process entry of the emulator benchmark: runs an emulator with quotas out of reach,
 * reports its URL over IPC and closes when the parent says so (or goes away), so the load
 * generator and the server never share a CPU's event loop.
 */
import { startEmulator } from '../../src/emulator/index.js';

const quota = 1_000_000_000;
const emulator = await startEmulator({ quotaV1: quota, quotaV2Requests: quota, quotaComplexity: quota });
const stop = async () => {
  await emulator.close();
  // An explicit exit, so `--cpu-prof` (when the parent asks for a profile) writes its file.
  process.exit(0);
};
process.on('message', (message) => {
  if (message === 'close') void stop();
  // CPU time this process spent (user + system, µs), read before and after a measured run.
  if (message === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpuMicros: user + system });
  }
});
process.on('disconnect', () => void stop());
process.send?.({ url: emulator.url });
