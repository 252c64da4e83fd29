import {
  PermissionFlagsBits,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  SlashCommandBuilder,
  type SlashCommandSubcommandBuilder,
} from 'discord.js';
import {
  BotError,
  type CommandDefinition,
  type CommandOptionDefinition,
  truncate,
} from '../../src/ports/index.js';

/** The one top-level command every lookup lives under, as on Slack. */
export const ROOT_COMMAND = 'directory';

const MAX_SUBCOMMANDS = 25;
const MAX_OPTIONS = 25;
const MAX_CHOICES = 25;
const DESCRIPTION_MAX = 100;
const CHOICE_MAX = 100;
const NAME_PATTERN = /^[-_'\p{L}\p{N}]{1,32}$/u;

export interface BuildCommandsOptions {
  /**
   * When set, commands that change channel state (subscribe, unsubscribe) are published under
   * a second top-level command of this name with `default_member_permissions` = Manage
   * Channels, because Discord applies that setting per top-level command, never per
   * subcommand. Unset (the default): everything stays under `/directory` and the core's
   * runtime check (Manage Channels or ADMIN_USER_IDS) is the only gate.
   */
  restrictedCommandName?: string;
}

function discordName(name: string, what: string): string {
  const lower = name.toLowerCase();
  if (!NAME_PATTERN.test(lower)) {
    throw new BotError(
      'config_invalid',
      `Discord cannot name ${what} "${name}": 1-32 letters, digits, - _ '`,
    );
  }
  return lower;
}

function description(text: string, fallback: string): string {
  return truncate(text.trim() || fallback, DESCRIPTION_MAX);
}

function addOption(sub: SlashCommandSubcommandBuilder, option: CommandOptionDefinition): void {
  const name = discordName(option.name, `option ${option.name}`);
  const about = description(option.description, option.name);
  const choices = option.choices && option.choices.length <= MAX_CHOICES ? option.choices : undefined;
  switch (option.type) {
    case 'boolean':
      sub.addBooleanOption((o) => o.setName(name).setDescription(about).setRequired(option.required));
      return;
    case 'integer':
      sub.addIntegerOption((o) => {
        o.setName(name).setDescription(about).setRequired(option.required);
        if (option.minValue !== undefined) o.setMinValue(option.minValue);
        if (option.maxValue !== undefined) o.setMaxValue(option.maxValue);
        const numeric = choices?.map(Number).filter(Number.isInteger);
        if (numeric && numeric.length === choices?.length && numeric.length > 0) {
          o.addChoices(...numeric.map((value) => ({ name: String(value), value })));
        }
        return o;
      });
      return;
    case 'string':
      sub.addStringOption((o) => {
        o.setName(name).setDescription(about).setRequired(option.required);
        if (option.maxLength !== undefined) o.setMaxLength(Math.min(option.maxLength, 6000));
        // Discord forbids autocomplete together with fixed choices; choices are the stricter UI.
        if (choices && choices.length > 0) {
          o.addChoices(
            ...choices.map((value) => ({
              name: truncate(value, CHOICE_MAX),
              value: value.slice(0, CHOICE_MAX),
            })),
          );
        } else if (option.autocomplete) {
          o.setAutocomplete(true);
        }
        return o;
      });
      return;
  }
}

function addSubcommand(builder: SlashCommandBuilder, definition: CommandDefinition): void {
  if (definition.options.length > MAX_OPTIONS) {
    throw new BotError(
      'config_invalid',
      `Discord allows ${MAX_OPTIONS} options; ${definition.name} has more`,
    );
  }
  builder.addSubcommand((sub) => {
    sub.setName(discordName(definition.name, `subcommand ${definition.name}`));
    sub.setDescription(description(definition.description, definition.name));
    // Discord requires required options before optional ones; the text rebuilt from an
    // interaction follows the definition's own order, so reordering here is safe.
    // A command that opens a form with nothing given must be sendable bare: its required
    // options are optional here, and the core still says which is missing when others are given.
    const options = definition.opensForm
      ? definition.options.map((o) => ({ ...o, required: false }))
      : definition.options;
    const ordered = [...options.filter((o) => o.required), ...options.filter((o) => !o.required)];
    for (const option of ordered) addOption(sub, option);
    return sub;
  });
}

function buildOne(
  name: string,
  about: string,
  definitions: readonly CommandDefinition[],
): SlashCommandBuilder {
  if (definitions.length > MAX_SUBCOMMANDS) {
    throw new BotError('config_invalid', `Discord allows ${MAX_SUBCOMMANDS} subcommands per command`);
  }
  const builder = new SlashCommandBuilder().setName(name).setDescription(about);
  for (const definition of definitions) addSubcommand(builder, definition);
  return builder;
}

/**
 * Builds the bulk-overwrite body for the core's command definitions: one `/directory`
 * chat-input command with a subcommand per definition and typed options (string, integer,
 * boolean; choices, bounds, autocomplete). Throws a `config_invalid` BotError when a
 * definition cannot be represented on Discord (bad name, over 25 subcommands or options).
 */
export function buildDiscordCommands(
  definitions: readonly CommandDefinition[],
  options: BuildCommandsOptions = {},
): RESTPostAPIChatInputApplicationCommandsJSONBody[] {
  const restricted = options.restrictedCommandName;
  if (restricted === undefined) {
    return [buildOne(ROOT_COMMAND, 'Look up the directory and manage channel feeds', definitions).toJSON()];
  }
  const open = definitions.filter((d) => !d.managesChannel);
  const managing = definitions.filter((d) => d.managesChannel);
  const commands = [buildOne(ROOT_COMMAND, 'Look up the directory', open).toJSON()];
  if (managing.length > 0) {
    const admin = buildOne(
      discordName(restricted, 'command'),
      'Manage the directory feeds of this channel',
      managing,
    );
    admin.setDefaultMemberPermissions(PermissionFlagsBits.ManageChannels);
    commands.push(admin.toJSON());
  }
  return commands;
}
