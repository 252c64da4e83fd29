import { encodeActionId, type Message, sanitizeUrl, truncate } from '../../src/ports/index.js';

/** A button: secondary (2) runs a command by its custom_id; link (5) opens its url. */
export type DiscordButton =
  | { type: 2; style: 1 | 2; label: string; custom_id: string }
  | { type: 2; style: 5; label: string; url: string };

/** A button row: Discord component types ACTION_ROW (1) holding BUTTON (2). */
export interface DiscordActionRow {
  type: 1;
  components: DiscordButton[];
}

/** Message component limits (developers/components/reference.mdx, and the OpenAPI spec). */
export const COMPONENT_LIMITS = {
  rows: 5,
  buttonsPerRow: 5,
  label: 80,
  customId: 100,
  /** A link button's url; shorter than an embed's. */
  url: 512,
} as const;

/**
 * The message's buttons as action rows: five per row, at most five rows, labels cut to 80
 * characters. A command button's custom_id is its versioned id (`dirbot:v1:follow:42`); one that
 * would not fit 100 characters, or a link over 512, is left off rather than fail the post.
 * Labels are plain text on Discord (no markdown, no mentions), so they need no escaping.
 */
export function renderActionRows(message: Message): DiscordActionRow[] {
  const buttons: DiscordButton[] = [];
  for (const action of message.actions ?? []) {
    const label = truncate(action.label, COMPONENT_LIMITS.label);
    if (action.kind === 'link') {
      const url = sanitizeUrl(action.url);
      if (url !== undefined && url.length <= COMPONENT_LIMITS.url)
        buttons.push({ type: 2, style: 5, label, url });
      continue;
    }
    const customId = encodeActionId(action);
    if (customId.length <= COMPONENT_LIMITS.customId)
      buttons.push({ type: 2, style: 2, label, custom_id: customId });
  }
  const rows: DiscordActionRow[] = [];
  const shown = buttons.slice(0, COMPONENT_LIMITS.rows * COMPONENT_LIMITS.buttonsPerRow);
  for (let i = 0; i < shown.length; i += COMPONENT_LIMITS.buttonsPerRow) {
    rows.push({ type: 1, components: shown.slice(i, i + COMPONENT_LIMITS.buttonsPerRow) });
  }
  return rows;
}
