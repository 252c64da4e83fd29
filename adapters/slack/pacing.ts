import type { DeliveryPacing } from '../../src/ports/index.js';

/** The default of `SLACK_WORKSPACE_MESSAGES_PER_MINUTE`. */
export const SLACK_WORKSPACE_MESSAGES_PER_MINUTE = 240;

/**
 * chat.postMessage is Slack's "special" tier: "1 message per second to a specific channel" with
 * short bursts, and a workspace-wide limit published only as "several hundred messages per
 * minute" with "generous burst behavior" (CONTRACTS.md §1(c); docs/slack.md). With no number to
 * learn and no header that states it before a 429, the workspace pace is a setting: the low end
 * of "several hundred", with a burst of five seconds' worth.
 */
export function slackPacing(
  workspaceMessagesPerMinute = SLACK_WORKSPACE_MESSAGES_PER_MINUTE,
): DeliveryPacing {
  return {
    perDestination: { ratePerSecond: 1, burst: 3 },
    global: {
      ratePerSecond: workspaceMessagesPerMinute / 60,
      burst: Math.max(1, Math.round(workspaceMessagesPerMinute / 12)),
    },
  };
}

export const SLACK_PACING: DeliveryPacing = slackPacing();
