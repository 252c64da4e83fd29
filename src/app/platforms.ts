/**
 * The chat platforms: the only module in src/ that imports from adapters/. Everything else in
 * the core reaches a platform through the ChatAdapter port or the renderers exported here.
 */
import {
  type ConsoleScreen,
  createConsoleAdapter,
  createConsoleScreen,
  isForegroundTerminal,
  type JobControl,
  processJobControl,
  renderConsoleMessage,
  renderConsoleReply,
} from '../../adapters/console/index.js';
import type * as DiscordAdapter from '../../adapters/discord/index.js';
// The webhook kinds alone, not the adapters' indexes: those load Bolt and discord.js.
import { DISCORD_WEBHOOK } from '../../adapters/discord/webhook.js';
import type * as SlackAdapter from '../../adapters/slack/index.js';
import { SLACK_WEBHOOK } from '../../adapters/slack/webhook.js';
import {
  createWebhookAdapter,
  JSON_WEBHOOK,
  MATTERMOST_WEBHOOK,
  TEAMS_WEBHOOK,
} from '../../adapters/webhooks/index.js';
import type { Config } from '../config/config.js';
import { ConfigError } from '../errors.js';
import { interactionEventSink } from '../observability/interaction-metrics.js';
import type { Metrics } from '../observability/metrics.js';
import type {
  ChatAdapter,
  CommandReply,
  Logger,
  Message,
  SecretSealer,
  WebhookDirectory,
  WebhookKind,
} from '../ports/index.js';
import { isInteractionEvent } from '../ports/index.js';
import type { BotStore } from '../store/index.js';
import { leaseClaims } from '../store/index.js';
import { USER_AGENT } from '../version.js';
import { isSandbox, SANDBOX_CHANNEL, wantsConsole } from './sandbox.js';
import { recognizeWebhook } from './webhook-recognition.js';

export type { ConsoleScreen, JobControl };
export { createConsoleScreen, isForegroundTerminal, processJobControl };

/**
 * Slack's and Discord's adapters load on first use. Their libraries (Bolt, discord.js) take about
 * a second of CPU to import, which every CLI command and every sandbox start would otherwise pay
 * without using them.
 */
const loadSlack = (): Promise<typeof SlackAdapter> => import('../../adapters/slack/index.js');
const loadDiscord = (): Promise<typeof DiscordAdapter> => import('../../adapters/discord/index.js');

/** Registers the slash commands with Discord (`directory-bot discord register`). */
export async function registerDiscordCommands(
  options: Parameters<typeof DiscordAdapter.registerDiscordCommands>[0],
): ReturnType<typeof DiscordAdapter.registerDiscordCommands> {
  return (await loadDiscord()).registerDiscordCommands(options);
}

/** How the console adapter meets the terminal; the CLI decides, the app passes it on. */
export interface ConsoleOptions {
  /** Standard input for the console prompt; only passed on an interactive terminal in the foreground. */
  consoleInput?: NodeJS.ReadableStream;
  /** Called when the console prompt ends (Ctrl-D, `exit`): the CLI shuts down. */
  onConsoleClosed?: () => void;
  /** Where the console adapter writes; default stdout. */
  consoleWrite?: (text: string) => void;
  /** The terminal the console shares with the log lines; takes the place of `consoleWrite`. */
  consoleScreen?: ConsoleScreen;
  /** Ctrl-Z, `fg` and `bg` for a prompt on a real terminal. */
  consoleJobControl?: JobControl;
  /** Where the full logs go while the terminal shows only warnings; named in the console's banner. */
  logFile?: string;
}

/**
 * The adapters this configuration asks for: the console (sandbox or console subscriptions),
 * Slack and Discord when their credentials are set. `port` is read when the console's banner
 * is shown, after the HTTP server is bound.
 */
export async function createAdapters(
  config: Config,
  options: ConsoleOptions & { logger: Logger; metrics?: Metrics },
  store: BotStore,
  port: () => number,
  /** Seals the tokens adapters keep in the store; undefined without STORE_ENCRYPTION_KEY. */
  secrets: SecretSealer | undefined,
  /** Every webhook by name (src/webhooks); absent: no webhook adapters (the CLI's lookups). */
  webhooks?: WebhookDirectory,
): Promise<ChatAdapter[]> {
  const { logger } = options;
  const sandbox = isSandbox(config);
  const adapters: ChatAdapter[] = [];
  if (wantsConsole(config)) {
    const input = options.consoleInput;
    adapters.push(
      createConsoleAdapter({
        logger,
        ...(input ? { input, banner: () => consoleBanner(config, sandbox, port(), options.logFile) } : {}),
        // In the sandbox the prompt is the feeds' channel: `subscriptions` there lists what flows.
        ...(sandbox ? { promptChannelId: SANDBOX_CHANNEL } : {}),
        ...(options.onConsoleClosed ? { onInputClosed: options.onConsoleClosed } : {}),
        ...(options.consoleWrite ? { write: options.consoleWrite } : {}),
        ...(options.consoleScreen ? { screen: options.consoleScreen } : {}),
        ...(options.consoleJobControl ? { jobControl: options.consoleJobControl } : {}),
        render: { color: process.stdout.isTTY === true },
      }),
    );
  }
  if (config.slack) {
    // loadConfig already refuses this; never store a workspace's tokens in plain text.
    if (config.slack.oauth && secrets === undefined)
      throw new ConfigError('STORE_ENCRYPTION_KEY: required with multi-workspace Slack install');
    const oauth =
      config.slack.oauth && secrets
        ? { ...config.slack.oauth, installationStore: store.keyv, secrets }
        : undefined;
    const { createSlackAdapter } = await loadSlack();
    const countInteraction = options.metrics && interactionEventSink(options.metrics, 'slack');
    adapters.push(
      createSlackAdapter({
        ...(config.slack.botToken ? { botToken: config.slack.botToken } : {}),
        signingSecret: config.slack.signingSecret,
        ...(config.slack.appToken ? { appToken: config.slack.appToken } : {}),
        apiUrl: config.slack.apiUrl,
        workspaceMessagesPerMinute: config.slack.workspaceMessagesPerMinute,
        ...(oauth ? { oauth } : {}),
        // Instances sharing the store run a re-sent copy of a command or click only once: each
        // interaction is a lease taken by a one-off owner, which a copy cannot take again.
        replayClaims: leaseClaims(store.leases),
        ...(countInteraction
          ? { onEvent: (event) => isInteractionEvent(event) && countInteraction(event) }
          : {}),
        logger,
      }),
    );
  }
  if (config.discord) {
    const { createDiscordAdapter } = await loadDiscord();
    adapters.push(
      createDiscordAdapter({
        ...(config.discord.token ? { token: config.discord.token } : {}),
        applicationId: config.discord.applicationId,
        ...(config.discord.publicKey ? { publicKey: config.discord.publicKey } : {}),
        apiUrl: config.discord.apiUrl,
        gateway: config.discord.gateway && config.discord.token !== undefined,
        logger,
      }),
    );
  }
  // The plain sandbox posts to the console only; anywhere else a webhook may be added at any time.
  if (webhooks !== undefined && (!sandbox || config.webhooks.length > 0)) {
    adapters.push(...createWebhookAdapters(webhooks, logger));
  }
  return adapters;
}

/**
 * Every kind of webhook the bot posts to. A URL is the first kind's that recognises it; one no
 * kind recognises is the generic JSON kind's (given a signing secret). A new kind is one module
 * implementing WebhookKind and its line here.
 */
export const WEBHOOK_KINDS: readonly WebhookKind[] = [
  DISCORD_WEBHOOK,
  SLACK_WEBHOOK,
  TEAMS_WEBHOOK,
  MATTERMOST_WEBHOOK,
  JSON_WEBHOOK,
];

/**
 * What a webhook URL is: its kind, the URL as it may be shown, and whose pacing it shares; or why
 * it cannot be used (for `WEBHOOK_<NAME>_URL: …` and `directory-bot webhook add`).
 */
export function identifyWebhook(
  url: string,
  hasSecret: boolean,
): { kind: WebhookKind; shown: string; workspaceId: string | undefined } | { problem: string } {
  const recognized = recognizeWebhook(WEBHOOK_KINDS, url, hasSecret);
  if ('problem' in recognized) return recognized;
  const parsed = new URL(url);
  return {
    kind: recognized.kind,
    shown: recognized.kind.redact(parsed),
    workspaceId: recognized.kind.workspaceOf?.(parsed),
  };
}

/**
 * One adapter per webhook kind, each finding its webhooks' URLs in `webhooks` by name. Made for
 * every kind, so a webhook stored while the bot runs (`directory-bot webhook add`) is served at
 * once; an adapter with no webhook costs nothing until it posts.
 */
export function createWebhookAdapters(webhooks: WebhookDirectory, logger: Logger): ChatAdapter[] {
  return WEBHOOK_KINDS.map((kind) => createWebhookAdapter(kind, { webhooks, logger, userAgent: USER_AGENT }));
}

/** What the person at the prompt sees first: where they are, how to leave, where the rest went. */
function consoleBanner(config: Config, sandbox: boolean, port: number, logFile: string | undefined): string {
  const lines = sandbox
    ? [
        'Directory Bot: SANDBOX MODE',
        `An embedded directory emulator invents activity, and every feed prints here as #${SANDBOX_CHANNEL}.`,
        'To go live set DIRECTORY_BASE_URL + DIRECTORY_TOKEN and a Slack or Discord app (see .env.example).',
      ]
    : [
        `Directory Bot is running: ${config.directory.baseUrl ?? 'embedded emulator'}; console subscriptions print here.`,
      ];
  lines.push(
    sandbox
      ? `Control panel: http://localhost:${port}/ (HTTP on port ${port}: /healthz, /readyz, /metrics).`
      : `HTTP on port ${port}: /healthz, /readyz, /metrics.`,
  );
  if (logFile !== undefined) {
    lines.push(`Full logs go to ${logFile}; only warnings show here (set LOG_LEVEL to see them all here).`);
  }
  lines.push('Type "help" for the commands, "exit" or "quit" to stop the bot.');
  return lines.join('\n');
}

/** The chat platforms' message renderers (the control panel previews with Slack's and Discord's). */
const CHAT_RENDERERS = {
  console: async (message: Message) => renderConsoleMessage(message),
  slack: async (message: Message) => (await loadSlack()).renderSlackMessage(message),
  discord: async (message: Message) => (await loadDiscord()).renderDiscordMessage(message),
};

/** Each platform's message renderer, for `directory-bot render`: the chat platforms and every webhook kind. */
export const MESSAGE_RENDERERS: typeof CHAT_RENDERERS &
  Record<string, (message: Message) => Promise<unknown>> = {
  ...CHAT_RENDERERS,
  ...Object.fromEntries(
    WEBHOOK_KINDS.map((kind) => [kind.platform, async (message: Message) => kind.render(message)]),
  ),
};

/**
 * Each platform's command-reply renderer, for `directory-bot lookup`: called as each adapter calls
 * it for a slash command, with the command text, so the payload carries the same "Share in
 * channel" button.
 */
export async function replyRenderer(
  platform: 'console' | 'slack' | 'discord',
): Promise<(reply: CommandReply, commandText: string) => unknown> {
  if (platform === 'slack') {
    const { renderSlackReply } = await loadSlack();
    return (reply, commandText) => renderSlackReply(reply, { shareValue: commandText });
  }
  if (platform === 'discord') {
    const { renderDiscordReply } = await loadDiscord();
    return (reply, commandText) => renderDiscordReply(reply, { commandText });
  }
  return (reply) => renderConsoleReply(reply);
}
