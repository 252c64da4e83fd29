import { z } from 'zod';
import type { CommandReply } from '../ports/index.js';
import type { ActionCommand } from './command-module.js';
import type { CommandSpec } from './command-spec.js';
import { errorReply, infoMessage, infoReply } from './replies.js';
import { closestMatch } from './suggest.js';

/** `help`: every command with its usage; `help <command>`: one in detail with examples. */
export function helpReply(specs: readonly CommandSpec[], command: string | undefined): CommandReply {
  if (command === undefined) {
    const lines = specs.map(
      (spec) =>
        `${usageForms(spec.usage).join('\n')}\n    ${spec.description}${spec.kind === 'manage' ? ' (channel managers)' : ''}`,
    );
    return infoReply('Commands of /directory. "help <command>" shows examples.', [
      infoMessage('/directory commands', lines.join('\n')),
    ]);
  }
  const name = command.toLowerCase();
  const spec = specs.find((s) => s.name === name);
  if (!spec) {
    const near = closestMatch(
      name,
      specs.map((s) => s.name),
    );
    const nearSpec = near ? specs.find((s) => s.name === near) : undefined;
    return errorReply(
      'command_usage',
      near
        ? `No command "${command}". Did you mean "${near}"?`
        : `No command "${command}". Try "help" for the list.`,
      nearSpec?.usage ?? 'help [command]',
    );
  }
  const options = spec.options.map((o) => {
    const label = o.positional ? `<${o.name}>` : `--${o.name}${o.type === 'boolean' ? '' : ' …'}`;
    return `${label}: ${o.description}${o.required ? ' (required)' : ''}`;
  });
  const text = [
    spec.description,
    ...(options.length > 0 ? ['', ...options] : []),
    '',
    'Examples:',
    ...spec.examples.map((e) => `/directory ${e}`),
  ].join('\n');
  return infoReply(`Usage: ${spec.usage}`, [infoMessage(spec.name, text)]);
}

/**
 * A usage's forms, one per line: `remind <event> [--before <minutes>] | remind list | remind
 * cancel <id>` is three commands, and written as one line it wraps wherever the width ends,
 * leaving `cancel <id>` on a line of its own, where it reads as a command. `|` inside `[…]` or
 * `<…>` separates choices of one option, not forms.
 */
export function usageForms(usage: string): string[] {
  const forms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < usage.length; i += 1) {
    const c = usage[i];
    if (c === '[' || c === '<') depth += 1;
    else if ((c === ']' || c === '>') && depth > 0) depth -= 1;
    else if (c === '|' && depth === 0) {
      forms.push(usage.slice(start, i).trim());
      start = i + 1;
    }
  }
  forms.push(usage.slice(start).trim());
  return forms.filter((form) => form !== '');
}

export const help: ActionCommand = {
  spec: {
    name: 'help',
    kind: 'local',
    description: 'How to use /directory, or one command in detail',
    usage: 'help [command]',
    examples: ['help', 'help subscribe'],
    options: [
      {
        name: 'command',
        description: 'The command to explain',
        type: 'string',
        required: false,
        positional: true,
        maxLength: 32,
        schema: z.string().regex(/^[a-z-]+$/i, { error: 'a command name' }),
      },
    ],
  },
  run({ args, commands }) {
    const topic = typeof args['command'] === 'string' ? args['command'] : undefined;
    return helpReply(commands, topic);
  },
  complete: (option, commands) => (option === 'command' ? commands.map((spec) => spec.name) : []),
};
