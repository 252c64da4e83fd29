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
  if (first === undefined) return findSubcommand('start').run([], processIo);
  if (first.startsWith('-')) {
    // Options belong to a subcommand; running `start` with an unknown option would only
    // print start's usage and hide what was wrong.
    processIo.stderr(`Unknown option "${first}".`);
    processIo.stderr('Run "directory-bot --help" for the subcommands and options.');
    return USAGE_EXIT_CODE;
  }
  const command = SUBCOMMANDS.find((c) => c.name === first);
  if (command) return command.run(rest, processIo);
  // `discord register` is a two-word subcommand: `discord` names a group.
  const group = SUBCOMMANDS.filter((c) => c.name.startsWith(`${first} `));
  if (group.length === 0) {
    processIo.stderr(`Unknown subcommand "${first}".`);
    processIo.stderr('Run "directory-bot --help" for the list.');
    return USAGE_EXIT_CODE;
  }
  const [second, ...afterSecond] = rest;
  const member = group.find((c) => c.name === `${first} ${second}`);
  if (member) return member.run(afterSecond, processIo);
  const groupHelp = `Usage: directory-bot ${first} <subcommand> [options]\n\nSubcommands:\n${group
    .map((c) => `  ${c.name.padEnd(18)}${c.summary}`)
    .join('\n')}\n\nEach takes --help.`;
  if (second === '--help' || second === '-h' || second === 'help') {
    processIo.stdout(groupHelp);
    return 0;
  }
  processIo.stderr(
    second === undefined ? `"${first}" needs a subcommand.` : `Unknown subcommand "${first} ${second}".`,
  );
  processIo.stderr(groupHelp);
  return USAGE_EXIT_CODE;
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
