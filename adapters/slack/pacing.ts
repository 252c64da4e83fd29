import type { DeliveryPacing } from '../../src/ports/index.js';

/** The default of `SLACK_WORKSPACE_MESSAGES_PER_MINUTE`. */
export const SLACK_WORKSPACE_MESSAGES_PER_MINUTE = 240;

/**
 * chat.postMessage is Slack's "special" tier: "1 message per second to a specific channel" with
 * short bursts, and a workspace-wide limit published only as "several hundred messages per
 * minute" with "generous burst behavior" (docs/slack.md). Slack counts its limits per app per
 * workspace, so the pace is each workspace's, and Slack states no limit across workspaces (so
 * there is no bot-wide one). With no number to learn and no header that states it before a 429,
 * the workspace pace is a setting: the low end of "several hundred", with a burst of five
 * seconds' worth.
 */
export function slackPacing(
  workspaceMessagesPerMinute = SLACK_WORKSPACE_MESSAGES_PER_MINUTE,
): DeliveryPacing {
  return {
    perDestination: { ratePerSecond: 1, burst: 3 },
    perWorkspace: {
      ratePerSecond: workspaceMessagesPerMinute / 60,
      burst: Math.max(1, Math.round(workspaceMessagesPerMinute / 12)),
    },
  };
}

export const SLACK_PACING: DeliveryPacing = slackPacing();
