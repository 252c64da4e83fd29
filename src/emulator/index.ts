/** The local Content Directory Service: what the bot, the CLI and the tests start and drive. */
export type { EmulatorAdmin, RecordCounts, V1Record } from './admin.js';
export { EMULATOR_USAGE, runEmulatorCli } from './cli.js';
export { type Clock, createManualClock, isManualClock, type ManualClock, systemClock } from './clock.js';
export type { Fault, FaultKind } from './faults.js';
export {
  DEFAULT_TOKEN,
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from './start-emulator.js';
export type { EmulatorStats } from './stats.js';
export { WEB_BASE as EMULATOR_WEB_URL } from './v1-serializers.js';
