import type { FeedItem } from '../feeds/feed-item.js';
import {
  MAX_MENTIONS,
  MENTION_KINDS,
  type MentionKind,
  type MentionSupport,
  type MentionTarget,
  type Message,
  type MessageSender,
  mentionText,
  sameMentions,
  sanitizeUrl,
} from '../ports/index.js';
import { matchesFilters } from './filters.js';

/**
 * How a subscription addresses its deliveries, beside which items it gets: who a match pings
 * (`--mention`, `--mention-on`) and the name and avatar a webhook posts under (`--webhook-name`,
 * `--webhook-avatar`). Like the format, these are how, not what: changing them changes the
 * subscription in place.
 */
export interface Addressing {
  mentions?: MentionTarget[];
  /** Ping only for items mentioning any of these words (on word boundaries, as `--keyword`). */
  mentionOn?: string[];
  sender?: MessageSender;
}

/** Ids as platforms write them; `|label` after one is kept apart. */
const ID = /^[A-Za-z0-9][A-Za-z0-9._@+=/-]{0,99}$/;
const LABEL_MAX = 80;
const BROADCAST = /^(?:@|<!)?(?:everyone|here|channel|all|group)>?$/i;

/**
 * One `--mention` value as a target, or a sentence saying what is wrong. Accepted: `kind:id`
 * (`role:112233…`, `group:S0123`, `user:U0123`, `tag:…`, with `|Label` after the id where the
 * platform shows a name), and the forms chat clients paste: Discord `<@&id>` and `<@id>`, Slack
 * `<!subteam^S0123|@handle>` and `<@U0123>`. Broadcasts (`@everyone`, `@here`, `<!channel>`)
 * are never targets: a subscription pings the people named, not a whole channel.
 */
export function parseMentionTarget(raw: string): MentionTarget | string {
  const text = raw.trim();
  if (BROADCAST.test(text)) {
    return `"${text}" would ping everyone: name a role, user group or user instead`;
  }
  const native = nativeTarget(text);
  if (native !== undefined) return native;
  const match = /^([a-z]+):([^|]+)(?:\|(.*))?$/.exec(text);
  if (!match) {
    return `"${text}" is not a mention target: write role:<id>, group:<id>, user:<id> or tag:<id>`;
  }
  const [, kind = '', id = '', label] = match;
  if (!(MENTION_KINDS as readonly string[]).includes(kind)) {
    return `"${kind}" is not a kind of mention target (${MENTION_KINDS.join(', ')})`;
  }
  return target(kind as MentionKind, id.trim(), label);
}

function nativeTarget(text: string): MentionTarget | string | undefined {
  const discordRole = /^<@&(\d{17,20})>$/.exec(text);
  if (discordRole) return { kind: 'role', id: discordRole[1] ?? '' };
  const slackGroup = /^<!subteam\^([A-Z0-9]+)(?:\|([^>]*))?>$/.exec(text);
  if (slackGroup) return target('group', slackGroup[1] ?? '', slackGroup[2]);
  const user = /^<@!?([A-Za-z0-9]+)(?:\|([^>]*))?>$/.exec(text);
  if (user) return target('user', user[1] ?? '', user[2]);
  return undefined;
}

function target(kind: MentionKind, id: string, label: string | undefined): MentionTarget | string {
  if (!ID.test(id)) return `"${id}" is not an id (letters, digits and . _ @ + = / -, at most 100)`;
  const shown = label?.trim();
  if (shown === undefined || shown === '') return { kind, id };
  if (shown.length > LABEL_MAX || /[<>]/.test(shown)) {
    return `the name after "|" must be plain text of at most ${LABEL_MAX} characters`;
  }
  return { kind, id, label: shown };
}

/**
 * Every `--mention` value (each may be a comma list) checked against what `platform` can ping, or
 * the first problem as a sentence. `support` undefined: the platform pings nobody.
 */
export function parseMentions(
  values: readonly string[],
  platform: string,
  support: MentionSupport | undefined,
): { ok: true; mentions: MentionTarget[] } | { ok: false; problem: string } {
  const mentions: MentionTarget[] = [];
  for (const value of values.flatMap((v) => v.split(',')).filter((v) => v.trim() !== '')) {
    const parsed = parseMentionTarget(value);
    if (typeof parsed === 'string') return { ok: false, problem: parsed };
    const problem = mentionProblem(parsed, platform, support);
    if (problem !== undefined) return { ok: false, problem };
    if (!mentions.some((m) => mentionText(m) === mentionText(parsed))) mentions.push(parsed);
  }
  if (mentions.length > MAX_MENTIONS) {
    return { ok: false, problem: `at most ${MAX_MENTIONS} mention targets per subscription` };
  }
  return { ok: true, mentions };
}

/** Why `target` cannot be pinged on `platform`, or undefined when it can. */
export function mentionProblem(
  target: MentionTarget,
  platform: string,
  support: MentionSupport | undefined,
): string | undefined {
  if (support === undefined) return `${platform} cannot mention anyone`;
  if (!support.kinds.includes(target.kind)) {
    return `${platform} cannot mention a ${target.kind} (it takes ${support.hint})`;
  }
  const problem = support.problem(target);
  return problem === undefined ? undefined : `${mentionText(target)}: ${problem} (${support.hint})`;
}

/** `--webhook-name`: what a Discord webhook shows as the poster (1 to 80 characters, as Discord allows). */
export function parseSenderName(value: string): string | { problem: string } {
  const name = value.trim();
  if (name.length < 1 || name.length > 80) return { problem: 'webhook-name expects 1 to 80 characters' };
  // Discord refuses these in a webhook's name.
  if (/discord|clyde/i.test(name)) return { problem: 'webhook-name may not contain "discord" or "clyde"' };
  return name;
}

/** `--webhook-avatar`: an absolute http(s) image URL. */
export function parseSenderAvatar(value: string): string | { problem: string } {
  const url = sanitizeUrl(value.trim());
  if (url === undefined || url.length > 2048) {
    return { problem: 'webhook-avatar expects an absolute http(s) URL of at most 2048 characters' };
  }
  return url;
}

/**
 * The message as this subscription sends it: its poster's name and avatar, and the configured
 * mentions when the item matches `--mention-on` (every item when none is set). Only the
 * subscription's configuration is read here; the item decides only whether, never whom.
 */
export function addressMessage(
  message: Message,
  subscription: Addressing,
  item: FeedItem | undefined,
): Message {
  const mentions = item === undefined ? undefined : mentionsFor(subscription, item);
  if (mentions === undefined && subscription.sender === undefined) return message;
  return {
    ...message,
    ...(mentions === undefined ? {} : { mentions }),
    ...(subscription.sender === undefined ? {} : { sender: subscription.sender }),
  };
}

/** The subscription's mention targets when `item` should ping them, otherwise undefined. */
export function mentionsFor(subscription: Addressing, item: FeedItem): MentionTarget[] | undefined {
  if (!subscription.mentions?.length) return undefined;
  if (subscription.mentionOn?.length && !matchesFilters(item, { keywords: subscription.mentionOn })) {
    return undefined;
  }
  return subscription.mentions.map((m) => ({ ...m }));
}

/** The subscription with this addressing (stored form), the same object when nothing changes. */
export function withAddressing<T extends Addressing>(subscription: T, addressing: Addressing): T {
  const same =
    sameMentions(subscription.mentions, addressing.mentions) &&
    (subscription.mentionOn ?? []).join(',') === (addressing.mentionOn ?? []).join(',') &&
    JSON.stringify(subscription.sender ?? {}) === JSON.stringify(addressing.sender ?? {});
  if (same) return subscription;
  const { mentions: _m, mentionOn: _o, sender: _s, ...rest } = subscription;
  return {
    ...rest,
    ...(addressing.mentions?.length ? { mentions: addressing.mentions } : {}),
    ...(addressing.mentions?.length && addressing.mentionOn?.length
      ? { mentionOn: addressing.mentionOn }
      : {}),
    ...(addressing.sender && Object.keys(addressing.sender).length > 0 ? { sender: addressing.sender } : {}),
  } as T;
}

/** `pings role:1 and user:2 on "launch"`, for the subscription's description. */
export function describeAddressing(addressing: Addressing): string {
  const parts: string[] = [];
  if (addressing.mentions?.length) {
    const on = addressing.mentionOn?.length
      ? ` on ${addressing.mentionOn.map((w) => `"${w}"`).join(' or ')}`
      : '';
    parts.push(`pings ${addressing.mentions.map(mentionText).join(', ')}${on}`);
  }
  if (addressing.sender?.name) parts.push(`posts as "${addressing.sender.name}"`);
  return parts.join(', ');
}
