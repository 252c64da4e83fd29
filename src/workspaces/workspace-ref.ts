import { UsageError } from '../errors.js';

export type WorkspacePlatform = 'slack' | 'discord';

/** One Slack workspace (team id, or enterprise id for an org-wide install) or Discord server (guild id). */
export interface WorkspaceRef {
  platform: WorkspacePlatform;
  id: string;
}

/** The ids each platform hands out: Slack `T…` (team) or `E…` (enterprise), Discord snowflakes. */
const ID_FORMATS: Record<WorkspacePlatform, { pattern: RegExp; described: string }> = {
  slack: { pattern: /^[TE][A-Z0-9]+$/, described: 'a Slack team id (T…) or enterprise id (E…)' },
  discord: { pattern: /^\d{17,20}$/, described: 'a Discord server id (17 to 20 digits)' },
};

/** `slack:T0123ABCD` or `discord:123456789012345678`; anything else is a UsageError saying what fits. */
export function parseWorkspaceRef(text: string): WorkspaceRef {
  const separator = text.indexOf(':');
  const platform = text.slice(0, separator);
  const id = text.slice(separator + 1);
  if (separator < 0 || (platform !== 'slack' && platform !== 'discord')) {
    throw new UsageError(
      `"${text}" is not a workspace: write slack:<team id> (e.g. slack:T0123ABCD) or discord:<server id>`,
    );
  }
  const format = ID_FORMATS[platform];
  if (!format.pattern.test(id)) throw new UsageError(`"${id}" is not ${format.described}`);
  return { platform, id };
}

export function formatWorkspaceRef(ref: WorkspaceRef): string {
  return `${ref.platform}:${ref.id}`;
}
