import type { ItemKind, Message, MessageAction, MessageAuthor, MessageField } from '../ports/index.js';

/** A message under construction: any optional part may be undefined and is then left off. */
export interface MessageParts {
  kind: ItemKind;
  title: string;
  fallback: string;
  url?: string | undefined;
  text?: string | undefined;
  fields?: MessageField[] | undefined;
  imageUrl?: string | undefined;
  thumbnailUrl?: string | undefined;
  author?: MessageAuthor | undefined;
  timestamp?: string | undefined;
  color?: string | undefined;
  footer?: string | undefined;
  actions?: MessageAction[] | undefined;
}

/**
 * Assembles a Message, dropping undefined and blank optional parts so every adapter can
 * test `message.x !== undefined` and never renders an empty section.
 */
export function buildMessage(parts: MessageParts): Message {
  const message: Message = { kind: parts.kind, title: parts.title, fallback: parts.fallback };
  if (parts.url !== undefined) message.url = parts.url;
  if (parts.text !== undefined && parts.text.trim() !== '') message.text = parts.text;
  if (parts.fields !== undefined && parts.fields.length > 0) message.fields = parts.fields;
  if (parts.imageUrl !== undefined) message.imageUrl = parts.imageUrl;
  if (parts.thumbnailUrl !== undefined) message.thumbnailUrl = parts.thumbnailUrl;
  if (parts.author !== undefined) message.author = parts.author;
  if (parts.timestamp !== undefined && !Number.isNaN(Date.parse(parts.timestamp))) {
    message.timestamp = new Date(Date.parse(parts.timestamp)).toISOString();
  }
  if (parts.color !== undefined) message.color = parts.color;
  if (parts.footer !== undefined) message.footer = parts.footer;
  if (parts.actions !== undefined && parts.actions.length > 0) message.actions = parts.actions;
  return message;
}

/** The small print under every feed message: the source and what happened. */
export function footerFor(event: string): string {
  return `Directory · ${event}`;
}

/**
 * Why a message is composed. A feed item is news ("New comment on …", "Directory · new post");
 * a lookup shows a record someone asked for, which may be years old, so it is described
 * without calling it new.
 */
export type Occasion = 'feed' | 'lookup';

export interface ComposeOptions {
  /** Default `feed`. */
  occasion?: Occasion;
}
