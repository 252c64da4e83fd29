import type { Logger, WindowLimit } from '../../src/ports/index.js';
import type { SlackAdapterEvent } from './events.js';
import type { SlackOAuthOptions } from './oauth-install.js';
import type { ReplayClaims } from './replay-guard.js';

export interface SlackAdapterOptions {
  /** Single-workspace bot token (`xoxb-…`). Either this or `oauth`. */
  botToken?: string;
  signingSecret: string;
  /** App-level token (`xapp-…`): use Socket Mode instead of HTTP request URLs. */
  appToken?: string;
  /** Slack Web API base, e.g. `https://slack.com/api/` (tests, GovSlack: `https://slack-gov.com/api/`). */
  apiUrl?: string;
  /** Multi-workspace install via OAuth; deliveries then use the token of `destination.workspaceId`. */
  oauth?: SlackOAuthOptions;
  logger: Logger;
  onEvent?: (event: SlackAdapterEvent) => void;
  /** The slash command as configured in the manifest. Default `/directory`. */
  commandName?: string;
  /** Wait this long for the core before acking "Working on it…". Default 2000 ms (Slack allows 3000). */
  ackBudgetMs?: number;
  /**
   * How long any Slack Web API call may take before it is abandoned (a `failed` delivery, retried
   * by the outbox). Default 10 s. The client's own default is no timeout at all, so one hung
   * chat.postMessage would hold the channel's only delivery slot and block shutdown.
   */
  requestTimeoutMs?: number;
  /**
   * The outbox's pace for feed messages across the channels of one workspace, per minute, for
   * each workspace on its own; default 240 (`SLACK_WORKSPACE_MESSAGES_PER_MINUTE`).
   */
  workspaceMessagesPerMinute?: number;
  /** How long a users.info admin answer is trusted. Default 5 minutes. */
  adminCacheTtlMs?: number;
  /** Clock for the admin cache. Default `Date.now`. */
  now?: () => number;
  /**
   * Socket Mode: how long start() waits for the first connection before resolving not ready (the
   * client keeps retrying in the background). Default 20 s, inside Heroku's 60 s boot limit.
   */
  socketConnectTimeoutMs?: number;
  /** The App Home's views.publish pace per workspace. Default 90 a minute (Tier 4). */
  homePublishLimit?: WindowLimit;
  /**
   * Where handled commands, clicks and submissions are claimed for the signature window, so a
   * re-sent copy runs nothing: the bot's store leases (shared by its instances). Default: memory.
   */
  replayClaims?: ReplayClaims;
}
