#!/usr/bin/env node
import { processIo, USAGE_EXIT_CODE } from './io.js';
import { SUBCOMMANDS } from './subcommands.js';

const HELP = `directory-bot — publishes Content Directory updates to Slack and Discord and answers /directory.

Usage: directory-bot [subcommand] [options]

Subcommands:
${SUBCOMMANDS.map((c) => `  ${c.name.padEnd(18)}${c.summary}`).join('\n')}

With no subcommand, "start" runs. Every subcommand takes --help.
Configuration comes from environment variables (and a .env file); see .env.example.`;

async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    processIo.stdout(HELP);
    return 0;
  }
  if (first === '--version' || first === '-v') {
    const { BOT_VERSION } = await import('../version.js');
    processIo.stdout(BOT_VERSION);
    return 0;
  }
  if (first === undefined || first.startsWith('-')) {
    return findSubcommand('start').run(argv, processIo);
  }
  // `discord register` is a two-word subcommand.
  const twoWord =
    rest[0] !== undefined ? SUBCOMMANDS.find((c) => c.name === `${first} ${rest[0]}`) : undefined;
  if (twoWord) return twoWord.run(rest.slice(1), processIo);
  const command = SUBCOMMANDS.find((c) => c.name === first);
  if (!command) {
    const group = SUBCOMMANDS.filter((c) => c.name.startsWith(`${first} `));
    if (group.length > 0) {
      processIo.stderr(`"${first}" needs one of: ${group.map((c) => c.name).join(', ')}`);
    } else {
      processIo.stderr(`Unknown subcommand "${first}".`);
    }
    processIo.stderr('Run "directory-bot --help" for the list.');
    return USAGE_EXIT_CODE;
  }
  return command.run(rest, processIo);
}

function findSubcommand(name: string) {
  const command = SUBCOMMANDS.find((c) => c.name === name);
  if (!command) throw new Error(`missing subcommand ${name}`);
  return command;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`directory-bot: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  },
);
