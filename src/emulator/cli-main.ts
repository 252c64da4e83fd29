/**
 * Stand-alone entry point: `npx tsx src/emulator/cli-main.ts [options]`. The product's
 * own CLI routes `directory-bot emulator` to runEmulatorCli as well.
 */
import { runEmulatorCli } from './cli.js';

const code = await runEmulatorCli(process.argv.slice(2), {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
});
process.exitCode = code;
