import { afterEach, describe, expect, it } from 'vitest';
import { buildDiscordCommands } from '../../adapters/discord/index.js';
import {
  type ActionCommand,
  COMMAND_REGISTRY,
  COMMANDS,
  createCommandRegistry,
  type LookupCommand,
} from '../../src/commands/index.js';
import { infoReply, lookupReply } from '../../src/commands/replies.js';
import { BOT_VERSION } from '../../src/version.js';
import { ADMIN_ID, type Harness, startHarness } from '../support/command-harness.js';

// The example of docs/adding-a-command.md, as that page shows it.
const version: ActionCommand = {
  spec: {
    name: 'version',
    kind: 'local',
    description: 'Which version of the bot is answering',
    usage: 'version',
    examples: ['version'],
    options: [],
  },
  run: () => infoReply(`Directory Bot ${BOT_VERSION}`),
};

/** A lookup that counts how often it really fetches, to see the handler's lookup policy. */
function shoutCommand(): LookupCommand & { fetches: number } {
  const command = {
    fetches: 0,
    spec: {
      name: 'shout',
      kind: 'lookup',
      description: 'Says a word back, loudly',
      usage: 'shout <word>',
      examples: ['shout hello'],
      options: [
        {
          name: 'word',
          description: 'The word',
          type: 'string',
          required: true,
          positional: true,
          maxLength: 20,
        },
      ],
    },
    run: ({ args }) => {
      const word = String(args['word']);
      return {
        key: `shout ${word.toLowerCase()}`,
        fetch: async () => {
          command.fetches += 1;
          return lookupReply(word.toUpperCase(), []);
        },
      };
    },
    complete: (option) => (option === 'word' ? ['hello', 'help'] : []),
  } satisfies LookupCommand & { fetches: number };
  return command;
}

const tidy: ActionCommand = {
  spec: {
    name: 'tidy',
    kind: 'manage',
    description: "Tidies this channel's subscriptions",
    usage: 'tidy',
    examples: ['tidy'],
    options: [],
  },
  run: () => infoReply('Tidied.'),
};

describe('the command list drives every surface', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('a module added to a copy of the list appears in help, the parser and the definitions', () => {
    const registry = createCommandRegistry([...COMMANDS, version, tidy]);
    expect(registry.specs.map((s) => s.name)).toEqual([
      ...COMMANDS.map((c) => c.spec.name),
      'version',
      'tidy',
    ]);

    const help = registry.help(undefined).messages[0]?.text ?? '';
    expect(help).toContain('version\n    Which version of the bot is answering');
    expect(help).toContain("tidy\n    Tidies this channel's subscriptions (channel managers)");
    expect(registry.help('version').text).toBe('Usage: version');
    expect(registry.help('versoin').text).toBe('No command "versoin". Did you mean "version"?');

    expect(registry.parse('version')).toMatchObject({ ok: true, spec: { name: 'version' } });
    expect(registry.parse('version now')).toMatchObject({
      ok: false,
      problem: '"version" takes no arguments, got "now".',
    });

    expect(registry.definitions.find((d) => d.name === 'version')).toEqual({
      name: 'version',
      description: 'Which version of the bot is answering',
      usage: 'version',
      examples: ['version'],
      managesChannel: false,
      options: [],
    });
    expect(registry.definitions.find((d) => d.name === 'tidy')?.managesChannel).toBe(true);

    // Discord registers the list's commands in its order; a manage command goes under the admin one.
    const [open] = buildDiscordCommands(registry.definitions);
    expect(open?.options?.map((o) => o.name)).toEqual(registry.specs.map((s) => s.name));
    const restricted = buildDiscordCommands(registry.definitions, {
      restrictedCommandName: 'directory-admin',
    });
    expect(restricted[1]?.options?.map((o) => o.name)).toEqual([
      'subscribe',
      'unsubscribe',
      'pause',
      'resume',
      'timezone',
      'tidy',
    ]);

    // The bot's own list is untouched by the copy.
    expect(COMMAND_REGISTRY.specs.map((s) => s.name)).not.toContain('version');
  });

  it('the handler serves the list it is given, with the policy of each kind', async () => {
    const shout = shoutCommand();
    h = await startHarness({ commands: [...COMMANDS, version, shout, tidy] });
    expect(h.handler.definitions().map((d) => d.name)).toContain('version');
    expect((await h.run('version')).text).toBe(`Directory Bot ${BOT_VERSION}`);

    // lookup: cached, so the second identical one is not fetched again.
    expect((await h.run('shout hi')).text).toBe('HI');
    expect((await h.run('shout HI')).text).toBe('HI');
    expect(shout.fetches).toBe(1);
    expect(h.events.slice(-2).map((e) => e.result)).toEqual(['ok', 'cached']);

    // manage: refused to someone who may not manage the channel, served to an admin.
    expect((await h.run('tidy')).error?.code).toBe('command_forbidden');
    expect((await h.run('tidy', { userId: ADMIN_ID })).text).toBe('Tidied.');

    expect(await h.handler.complete?.('shout', 'word', 'hel')).toEqual(['hello', 'help']);
    expect(await h.handler.complete?.('help', 'command', 'ver')).toEqual(['version']);
    expect((await h.run('help')).messages[0]?.text).toContain('shout <word>');
  });

  it('refuses a list with two commands of one name', () => {
    expect(() =>
      createCommandRegistry([...COMMANDS, { ...version, spec: { ...version.spec, name: 'help' } }]),
    ).toThrow('two commands are named "help"');
  });
});
