import { doctorCommand } from './doctor-command.js';
import { startCommand } from './start-command.js';
import type { Subcommand } from './subcommand.js';

/** Every CLI subcommand, listed explicitly (no file-glob loading). */
export const SUBCOMMANDS: readonly Subcommand[] = [startCommand, doctorCommand];
