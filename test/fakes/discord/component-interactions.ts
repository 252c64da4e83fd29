import type { KeyObject } from 'node:crypto';
import { discordSignature } from './signing.js';

/** A button as the bot rendered it in a message's components. */
export interface RenderedComponent {
  type: number;
  style?: number;
  label?: string;
  custom_id?: string;
  url?: string;
}

/**
 * The button labelled `label` in a message body the bot sent (as the fake recorded it), so a test
 * clicks exactly what a person would see. Throws when there is none.
 */
export function findComponent(body: unknown, label: string): RenderedComponent {
  const rows = ((body ?? {}) as { components?: { components?: RenderedComponent[] }[] }).components ?? [];
  for (const row of rows) {
    const found = row.components?.find((component) => component.label === label);
    if (found !== undefined) return found;
  }
  throw new Error(`no component labelled ${label} in the message`);
}

export interface ComponentClick {
  applicationId: string;
  guildId: string;
  channelId: string;
  userId: string;
  /** The clicker's permission bit set in the channel, as Discord computes it. */
  permissions: string;
  customId: string;
  /** The clicked message's id. */
  messageId?: string;
}

let seq = 400000000000000000n;

/**
 * A MESSAGE_COMPONENT interaction (type 3) as Discord sends it when someone presses a button
 * (receiving-and-responding.mdx): the member with their permissions, the channel, the message,
 * and `data.custom_id` / `component_type` 2. Refuses a custom_id Discord could never send (over
 * 100 characters), so a test cannot click a button that would not have been accepted.
 */
export function componentInteraction(click: ComponentClick): Record<string, unknown> {
  if (click.customId.length < 1 || click.customId.length > 100) {
    throw new Error(`custom_id of ${click.customId.length} characters: Discord only sends 1-100`);
  }
  seq += 1n;
  return {
    id: seq.toString(),
    application_id: click.applicationId,
    type: 3,
    token: `component-token-${seq}`,
    guild_id: click.guildId,
    channel_id: click.channelId,
    channel: { id: click.channelId, type: 0 },
    member: {
      user: { id: click.userId, username: 'clicker', global_name: 'Clicker' },
      permissions: click.permissions,
    },
    message: { id: click.messageId ?? '500000000000000001', channel_id: click.channelId },
    data: { custom_id: click.customId, component_type: 2 },
    app_permissions: '3072',
    locale: 'en-US',
    guild_locale: 'en-US',
    entitlements: [],
    authorizing_integration_owners: { '0': click.guildId },
    context: 0,
    attachment_size_limit: 10485760,
    version: 1,
  };
}

/**
 * POSTs an interaction to the bot's `/discord/interactions`, signed with Ed25519 over
 * `{timestamp}{body}` at `timestamp` (seconds, as a string; default now).
 */
export function postInteraction(
  botUrl: string,
  privateKey: KeyObject,
  interaction: Record<string, unknown>,
  timestamp = String(Math.floor(Date.now() / 1000)),
): Promise<Response> {
  const raw = JSON.stringify(interaction);
  return fetch(`${botUrl}/discord/interactions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature-timestamp': timestamp,
      'x-signature-ed25519': discordSignature(privateKey, timestamp, raw),
    },
    body: raw,
  });
}
