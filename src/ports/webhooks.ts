/**
 * Webhook destinations: a channel the bot reaches through a URL someone created in their chat
 * (a Discord or Slack incoming webhook, a Teams Workflows webhook, a Mattermost incoming webhook)
 * or any receiver of the generic JSON payload. A webhook is named (`webhook:<name>` in
 * SUBSCRIPTIONS, `directory-bot webhook add <name>`); the name is its destination's channel id,
 * and its URL is a secret the core keeps (sealed in the store, or in the variable
 * `WEBHOOK_<NAME>_URL`) and hands to the webhook's adapter only to make a request.
 *
 * Each kind of webhook is a `WebhookKind`, kept in its platform's adapter folder beside that
 * platform's renderer (adapters/discord/webhook.ts, adapters/slack/webhook.ts) or in
 * adapters/webhooks; adapters/webhooks makes any kind a ChatAdapter (`createWebhookAdapter`).
 */
import type {
  DeliveredItem,
  DeliveryOptions,
  DeliveryOutcome,
  DeliveryPacing,
  Destination,
  MessageReference,
} from './chat-adapter.js';
import type { Logger } from './logger.js';
import type { MentionSupport } from './mentions.js';
import type { Message } from './message.js';

/** One named webhook as its adapter needs it. Never logged: the URL is the credential. */
export interface WebhookEndpoint {
  name: string;
  url: string;
  /** The generic JSON kind's signing secret (HMAC-SHA256 of the timestamp and body). */
  secret?: string;
}

/** Where a webhook adapter looks up the endpoint behind a destination's name. */
export interface WebhookDirectory {
  /** The endpoint named `name` for `platform` (`teams-webhook`…), or undefined when none is. */
  endpoint(platform: string, name: string): Promise<WebhookEndpoint | undefined>;
}

export interface WebhookRequest {
  method: 'POST' | 'PATCH' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  /** Sent as given (already JSON): a signed payload must be byte for byte what was signed. */
  body?: string;
}

/** One answer from a webhook: status, its headers (lower-case names), and the body as text (bounded). */
export interface WebhookResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request that got no answer. `sent`: it may have reached the receiver (no answer in time, a
 * connection reset after the body went out), so a post may have been made; otherwise it
 * certainly was not (no connection).
 */
export interface WebhookFailure {
  failure: string;
  sent: boolean;
}

/** How a kind makes its requests: one each, never repeated, no redirects, errors as values. */
export interface WebhookClient {
  send(request: WebhookRequest): Promise<WebhookResponse | WebhookFailure>;
}

/** What a kind's requests are made with. */
export interface KindContext {
  http: WebhookClient;
  logger: Logger;
  /**
   * What the adapter learned about its webhooks and keeps while it runs (a Discord webhook that
   * posts into a forum), by webhook name; a new adapter learns it again from the first answer.
   */
  learned: Set<string>;
}

/**
 * One kind of webhook (Discord, Slack, Teams, Mattermost, generic JSON): how its URLs look, how
 * fast it may be posted to and by whom its limits are shared, whom it can ping, what it sends and
 * how to read its answers. Adding a kind is a module implementing this and its entry in
 * `WEBHOOK_KINDS` (src/app/platforms.ts).
 */
export interface WebhookKind {
  /** Its short name, as `directory-bot webhook list` shows it: `teams`. */
  kind: string;
  /** The destination platform of its webhooks (`teams-webhook`): destination keys, metrics, logs. */
  platform: string;
  /** What to call it in sentences: `Teams webhook`. */
  title: string;
  /**
   * Whether `url` is one of this kind's, by its path (any host: the same URL behind a proxy, or a
   * test server on 127.0.0.1, is still that kind). The generic JSON kind recognises none: it is
   * what a URL no other kind recognises becomes, given a signing secret.
   */
  recognizes(url: URL): boolean;
  /** Why a URL that looks like this kind's cannot be used (a retired Teams connector), if so. */
  refuses?(url: URL): string | undefined;
  /**
   * Whose limits the webhook shares beyond its own (a Slack team, a Mattermost server): the
   * `workspaceId` of its destinations, which `pacing.perWorkspace` is counted by.
   */
  workspaceOf?(url: URL): string | undefined;
  /** Needs a signing secret (`WEBHOOK_<NAME>_SECRET`). */
  needsSecret?: boolean;
  /**
   * Messages can be edited in place and deleted through the webhook. False: posted messages stay
   * as they are, which is said where edits are asked for (`on-removal=delete`, the docs).
   */
  edits: boolean;
  /** Takes a poster name and avatar per subscription (`webhook-name`, `webhook-avatar`). */
  takesSender: boolean;
  pacing: DeliveryPacing;
  mentions?: MentionSupport;
  /** Sends the item's directory record (see ChatAdapter.wantsRecords). */
  wantsRecords?: boolean;
  /** The URL as it may be shown (status, lists, export): never the part that is the credential. */
  redact(url: URL): string;
  /** The request body for `message`, as posted (the `render` command and the README's examples). */
  render(message: Message): unknown;
  post(
    endpoint: WebhookEndpoint,
    destination: Destination,
    message: Message,
    options: DeliveryOptions,
    context: KindContext,
  ): Promise<DeliveryOutcome>;
  edit?(
    endpoint: WebhookEndpoint,
    destination: Destination,
    reference: MessageReference,
    message: Message,
    item: DeliveredItem | undefined,
    context: KindContext,
  ): Promise<DeliveryOutcome>;
  remove?(
    endpoint: WebhookEndpoint,
    destination: Destination,
    reference: MessageReference,
    context: KindContext,
  ): Promise<DeliveryOutcome>;
}
