import { PermissionFlagsBits } from 'discord.js';
import type { Actor, CommandDefinition } from '../../src/ports/index.js';
import type { RawInteraction, RawOption } from './interaction-payload.js';

const SUBCOMMAND = 1;

/** The subcommand an interaction invoked and its options, or undefined when none was. */
export function subcommandOf(interaction: RawInteraction): RawOption | undefined {
  const first = interaction.data?.options?.[0];
  return first?.type === SUBCOMMAND ? first : undefined;
}

function findDefinition(
  definitions: readonly CommandDefinition[],
  name: string,
): CommandDefinition | undefined {
  return definitions.find((d) => d.name.toLowerCase() === name);
}

/** Quotes a value that holds whitespace or quotes so the core's tokenizer keeps it as one argument. */
export function quoteArgument(value: string): string {
  if (value !== '' && !/[\s"'\\]/.test(value)) return value;
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/**
 * Turns a slash-command interaction back into the core's command text, e.g.
 * `subscribe comments --keyword "machine learning" --video`, so that the core has one parser
 * for every platform. Positional arguments follow the definition's order (not Discord's,
 * which puts required options first); booleans become bare flags when true.
 */
export function commandText(interaction: RawInteraction, definitions: readonly CommandDefinition[]): string {
  const sub = subcommandOf(interaction);
  if (!sub) return '';
  const definition = findDefinition(definitions, sub.name);
  const given = new Map((sub.options ?? []).map((o) => [o.name, o.value]));
  if (!definition) {
    // Not in the current definitions (a stale registration): pass it through and let the core say so.
    return [sub.name, ...[...given.values()].map((v) => quoteArgument(String(v)))].join(' ');
  }
  const parts: string[] = [definition.name];
  for (const option of definition.options.filter((o) => o.positional)) {
    const value = given.get(option.name.toLowerCase());
    if (value !== undefined) parts.push(quoteArgument(String(value)));
  }
  for (const option of definition.options.filter((o) => !o.positional)) {
    const value = given.get(option.name.toLowerCase());
    if (value === undefined || value === false) continue;
    parts.push(`--${option.name}`);
    if (option.type !== 'boolean') parts.push(quoteArgument(String(value)));
  }
  return parts.join(' ');
}

/** The focused option of an autocomplete interaction, mapped back to the core's names. */
export function focusedOption(
  interaction: RawInteraction,
  definitions: readonly CommandDefinition[],
):
  | { command: string; option: string; partial: string; type: CommandDefinition['options'][number]['type'] }
  | undefined {
  const sub = subcommandOf(interaction);
  const focused = sub?.options?.find((o) => o.focused);
  if (!sub || !focused) return undefined;
  const definition = findDefinition(definitions, sub.name);
  const option = definition?.options.find((o) => o.name.toLowerCase() === focused.name);
  if (!definition || !option) return undefined;
  return {
    command: definition.name,
    option: option.name,
    partial: String(focused.value ?? ''),
    type: option.type,
  };
}

/**
 * Who ran the interaction. In a guild, `member.permissions` is the member's computed
 * permission set in that channel; Administrator implies Manage Channels. In a DM there is
 * no channel to manage. ADMIN_USER_IDS are the core's business, not ours.
 */
export function actorOf(interaction: RawInteraction): Actor {
  const user = interaction.member?.user ?? interaction.user;
  const permissions = interaction.member?.permissions;
  let canManageChannel = false;
  if (permissions !== undefined && /^\d+$/.test(permissions)) {
    const bits = BigInt(permissions);
    canManageChannel =
      (bits & PermissionFlagsBits.ManageChannels) !== 0n || (bits & PermissionFlagsBits.Administrator) !== 0n;
  }
  const actor: Actor = { userId: user?.id ?? 'unknown', canManageChannel };
  const displayName = user?.global_name ?? user?.username;
  if (displayName) actor.displayName = displayName;
  return actor;
}

/** The channel an interaction happened in (`channel_id` is deprecated in favour of `channel.id`). */
export function channelOf(interaction: RawInteraction): string {
  return interaction.channel?.id ?? interaction.channel_id ?? '';
}
