/**
 * What the control panel asks a chat platform about the people who sign in to it: where the bot
 * is installed, which workspace a channel is in, and whether a person may change a channel's
 * subscriptions there. The platform's own answer, as a `/directory subscribe` in that channel
 * would get it; the core adds ADMIN_USER_IDS and decides what is shown.
 */

/** A Slack workspace (team) or Discord server (guild) the bot is installed in. */
export interface Installation {
  id: string;
  /** Its name, as the platform gives it; the id when it gives none. Plain text. */
  name: string;
}

export interface WorkspaceAccess {
  /**
   * The workspaces the bot is installed in that the platform can list (a single-token Slack app:
   * its one workspace; Discord: every server the bot is in; a multi-workspace Slack install lists
   * none, as it keeps no list). Cached by the adapter; never rejects.
   */
  installations(): Promise<readonly Installation[]>;
  /** The bot's installation in `workspaceId`, or undefined when it is not installed there. Never rejects. */
  installation(workspaceId: string): Promise<Installation | undefined>;
  /**
   * The workspace `channelId` is in, as the platform says (undefined when the bot cannot see the
   * channel). For channels whose subscriptions name no workspace (routes from SUBSCRIPTIONS), and
   * for a channel asked for by id that has none yet. Never rejects.
   */
  workspaceOfChannel(channelId: string): Promise<string | undefined>;
  /**
   * Whether `userId` may change the subscriptions of `channelId` in `workspaceId`, computed as the
   * platform computes it for a slash command there: Slack workspace admin or owner; Discord the
   * Manage Channels (or Administrator) permission in that channel, overwrites included. False when
   * unsure: refusing a change is safe, granting one is not. Never rejects.
   */
  mayManageChannel(workspaceId: string, channelId: string, userId: string): Promise<boolean>;
}
