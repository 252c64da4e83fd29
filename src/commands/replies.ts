import type { CommandReply, Message } from '../ports/index.js';
import { formatDuration } from './time-text.js';

/** A private answer with results the asker may share in the channel. */
export function lookupReply(text: string, messages: Message[]): CommandReply {
  return { visibility: 'ephemeral', text, messages, shareable: messages.length > 0 };
}

/** A private answer with nothing to share. */
export function infoReply(text: string, messages: Message[] = []): CommandReply {
  return { visibility: 'ephemeral', text, messages, shareable: false };
}

/** A private failure answer; never shareable. `option`: the option the problem is about. */
export function errorReply(code: string, text: string, usage?: string, option?: string): CommandReply {
  return {
    visibility: 'ephemeral',
    text,
    messages: [],
    shareable: false,
    error: {
      code,
      ...(usage === undefined ? {} : { usage }),
      ...(option === undefined ? {} : { option }),
    },
  };
}

/** An `info` Message: the way the bot shows its own lists (subscriptions, status). */
export function infoMessage(title: string, text: string, fields?: Message['fields']): Message {
  return {
    kind: 'info',
    title,
    ...(text === '' ? {} : { text }),
    ...(fields && fields.length > 0 ? { fields } : {}),
    fallback: text === '' ? title : `${title}: ${text.split('\n')[0] ?? ''}`.slice(0, 300),
  };
}

/** The answer to a person asking the directory faster than their share of the quota allows. */
export function rateLimitedReply(waitMs: number): CommandReply {
  return errorReply(
    'command_rate_limited',
    `You are looking things up faster than the team's shared directory quota allows. Try again in ${formatDuration(waitMs)}.`,
  );
}
