import type { CommandInvocation } from '../ports/index.js';

/** Who may change a channel's subscriptions, in the platform's own words. */
export function whoMayManage(platform: string): string {
  switch (platform) {
    case 'slack':
      return "Only workspace admins and owners, or people listed in ADMIN_USER_IDS, can change this channel's subscriptions.";
    case 'discord':
      return "Only members with the Manage Channels permission, or people listed in ADMIN_USER_IDS, can change this channel's subscriptions.";
    default:
      return "Only people allowed to manage this channel, or listed in ADMIN_USER_IDS, can change this channel's subscriptions.";
  }
}

/** Whether the actor may change channel state: the platform says so, or ADMIN_USER_IDS does. */
export function mayManage(invocation: CommandInvocation, adminUserIds: readonly string[]): boolean {
  return invocation.actor.canManageChannel || adminUserIds.includes(invocation.actor.userId);
}
