import { EMULATOR_USAGE, runEmulatorCli } from '../emulator/index.js';
import type { Subcommand } from './subcommand.js';

export const emulatorCommand: Subcommand = {
  name: 'emulator',
  summary: 'Run a local Content Directory Service (V1 REST + V2 GraphQL) for development and tests.',
  usage: EMULATOR_USAGE,
  run: (argv, io) => runEmulatorCli(argv, io),
};
