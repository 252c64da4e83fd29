import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDiscordCommands, registerDiscordCommands } from '../../../adapters/discord/index.js';
import { isBotError } from '../../../src/ports/index.js';
import {
  commandsInSpecForm,
  REQUEST_SCHEMAS,
  validateAgainstSpec,
} from '../../fakes/discord/discord-spec.js';
import { FakeDiscordRest } from '../../fakes/discord/fake-discord-rest.js';
import { APP_ID, DEFINITIONS, GUILD_ID } from '../../support/discord-interactions.js';

interface OptionJson {
  name: string;
  type: number;
  required?: boolean;
  autocomplete?: boolean;
  choices?: { name: string; value: string | number }[];
  min_value?: number;
  max_value?: number;
  options?: OptionJson[];
}

describe('buildDiscordCommands', () => {
  it('builds one /directory command with a typed subcommand per definition, valid per the spec', () => {
    const body = buildDiscordCommands(DEFINITIONS);
    expect(body).toHaveLength(1);
    expect(body[0]).toMatchObject({ name: 'directory', type: 1 });
    expect(body[0]!.default_member_permissions).toBeUndefined();
    const subs = body[0]!.options as OptionJson[];
    expect(subs.map((s) => s.name)).toEqual(DEFINITIONS.map((d) => d.name));
    expect(subs.every((s) => s.type === 1)).toBe(true);

    const subscribe = subs.find((s) => s.name === 'subscribe')!;
    expect(subscribe.options!.find((o) => o.name === 'feed')).toMatchObject({ type: 3, required: true });
    expect(subscribe.options!.find((o) => o.name === 'video')).toMatchObject({ type: 5 });
    expect(subscribe.options!.find((o) => o.name === 'remind')).toMatchObject({
      type: 4,
      min_value: 1,
      max_value: 1440,
    });
    expect(subs.find((s) => s.name === 'post')!.options![0]).toMatchObject({
      autocomplete: true,
      required: true,
    });
    expect(subs.find((s) => s.name === 'live')!.options![0]!.choices!.map((c) => c.value)).toEqual([
      'today',
      'tomorrow',
      'week',
    ]);
    expect(validateAgainstSpec(REQUEST_SCHEMAS.bulkCommands, commandsInSpecForm(body))).toEqual([]);
  });

  it('lists required options before optional ones, as Discord demands', () => {
    const body = buildDiscordCommands([
      {
        name: 'find',
        description: 'Find',
        usage: 'find',
        examples: [],
        managesChannel: false,
        options: [
          { name: 'limit', description: 'How many', type: 'integer', required: false, positional: false },
          { name: 'query', description: 'What', type: 'string', required: true, positional: true },
        ],
      },
    ]);
    const find = (body[0]!.options as OptionJson[])[0]!;
    expect(find.options!.map((o) => o.name)).toEqual(['query', 'limit']);
  });

  it('can put channel-changing commands under a second command restricted to Manage Channels', () => {
    const body = buildDiscordCommands(DEFINITIONS, { restrictedCommandName: 'directory-admin' });
    expect(body.map((c) => c.name)).toEqual(['directory', 'directory-admin']);
    expect((body[0]!.options as OptionJson[]).map((o) => o.name)).not.toContain('subscribe');
    expect((body[1]!.options as OptionJson[]).map((o) => o.name)).toEqual(['subscribe', 'unsubscribe']);
    expect(body[1]!.default_member_permissions).toBe(String(1 << 4));
    expect(validateAgainstSpec(REQUEST_SCHEMAS.bulkCommands, commandsInSpecForm(body))).toEqual([]);
  });

  it('truncates long descriptions to 100 characters', () => {
    const body = buildDiscordCommands([
      {
        name: 'help',
        description: 'd'.repeat(300),
        usage: 'help',
        examples: [],
        options: [],
        managesChannel: false,
      },
    ]);
    const help = (body[0]!.options as { description: string }[])[0]!;
    expect(help.description.length).toBe(100);
  });

  it('refuses definitions Discord cannot represent with a config_invalid error', () => {
    const many = Array.from({ length: 26 }, (_, i) => ({ ...DEFINITIONS[0]!, name: `cmd${i}` }));
    expect(() => buildDiscordCommands(many)).toThrow(expect.objectContaining({ code: 'config_invalid' }));
    try {
      buildDiscordCommands([{ ...DEFINITIONS[0]!, name: 'has space' }]);
      expect.unreachable();
    } catch (error) {
      expect(isBotError(error, 'config_invalid')).toBe(true);
    }
  });
});

describe('registerDiscordCommands', () => {
  let rest: FakeDiscordRest;
  beforeEach(async () => {
    rest = new FakeDiscordRest({ token: 'reg-token' });
    await rest.listen();
  });
  afterEach(async () => rest.close());

  it('bulk-overwrites guild commands when a guild is given', async () => {
    const result = await registerDiscordCommands({
      token: 'reg-token',
      applicationId: APP_ID,
      apiUrl: rest.url,
      guildId: GUILD_ID,
      definitions: DEFINITIONS,
    });
    expect(result).toEqual({ scope: 'guild', count: 1 });
    const [call] = rest.callsTo('PUT', '/applications/:id/guilds/:id/commands');
    expect(call?.path).toBe(`/applications/${APP_ID}/guilds/${GUILD_ID}/commands`);
    expect(rest.commands.guilds.get(GUILD_ID)).toHaveLength(1);
    expect(rest.problems).toEqual([]);
  });

  it('bulk-overwrites global commands otherwise', async () => {
    const result = await registerDiscordCommands({
      token: 'reg-token',
      applicationId: APP_ID,
      apiUrl: rest.url,
      definitions: DEFINITIONS,
      restrictedCommandName: 'directory-admin',
    });
    expect(result).toEqual({ scope: 'global', count: 2 });
    expect(rest.callsTo('PUT', '/applications/:id/commands')).toHaveLength(1);
  });

  it('reports a refused token as a platform_error', async () => {
    await expect(
      registerDiscordCommands({
        token: 'wrong',
        applicationId: APP_ID,
        apiUrl: rest.url,
        definitions: DEFINITIONS,
      }),
    ).rejects.toMatchObject({ code: 'platform_error' });
  });
});
