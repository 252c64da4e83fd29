import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  v1CollectionSchema,
  v1CommentSchema,
  v1LiveEventSchema,
  v1NotificationSchema,
  v2PostSchema,
} from '../../src/directory/index.js';
import { DEFAULT_TOKEN, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import {
  composeCollectionMessage,
  composeCommentMessage,
  composeLiveEventMessage,
  composeNotificationMessage,
  composePostMessage,
  FALLBACK_MAX,
} from '../../src/messages/index.js';
import type { Message } from '../../src/ports/index.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ quirks: true, seed: 7 });
});
afterAll(() => emulator.close());

async function getJson(path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const response = await fetch(`${emulator.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${DEFAULT_TOKEN}`, 'content-type': 'application/json' },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

/** The invariants every composed message keeps, whatever the record held. */
function expectWellFormed(message: Message): void {
  expect(message.title.trim()).not.toBe('');
  expect(message.title).not.toContain('\n');
  expect(message.fallback.length).toBeLessThanOrEqual(FALLBACK_MAX);
  expect(message.fallback).not.toContain('\n');
  const json = JSON.stringify(message);
  expect(json).not.toMatch(/undefined|NaN|\[REDACTED\]/);
  for (const url of [
    message.url,
    message.imageUrl,
    message.thumbnailUrl,
    message.author?.url,
    message.author?.iconUrl,
  ]) {
    if (url !== undefined) expect(url).toMatch(/^https?:\/\/[^\s]+$/);
  }
  if (message.author?.url !== undefined) expect(message.author.name).not.toBe('someone');
  for (const field of message.fields ?? []) expect(field.value.trim()).not.toBe('');
}

function parseAll<T>(
  raw: unknown,
  schema: { safeParse(value: unknown): { success: boolean; data?: T } },
): T[] {
  expect(Array.isArray(raw)).toBe(true);
  return (raw as unknown[]).flatMap((record) => {
    const parsed = schema.safeParse(record);
    return parsed.success && parsed.data !== undefined ? [parsed.data] : [];
  });
}

describe('composing what the emulator serves (real-world quirks on)', () => {
  it('composes every comment, including redacted commenters and hostile bodies', async () => {
    const comments = parseAll((await getJson('/v1/comments?per_page=50')).comments, v1CommentSchema);
    expect(comments.length).toBeGreaterThan(10);
    const messages = comments.map((comment) => composeCommentMessage(comment));
    messages.forEach(expectWellFormed);
    expect(messages.some((m) => m.author?.name === 'someone')).toBe(true);
  });

  it('composes every collection, notification and live event', async () => {
    const collections = parseAll((await getJson('/v1/collections')).collections, v1CollectionSchema);
    const notifications = parseAll((await getJson('/v1/notifications')).notifications, v1NotificationSchema);
    const live = parseAll((await getJson('/v1/live')).live_events, v1LiveEventSchema);
    expect(collections.length + notifications.length + live.length).toBeGreaterThan(3);
    collections.map(composeCollectionMessage).forEach(expectWellFormed);
    notifications.map(composeNotificationMessage).forEach(expectWellFormed);
    for (const event of live) {
      expectWellFormed(composeLiveEventMessage(event));
      expectWellFormed(
        composeLiveEventMessage(event, { reminder: true, now: Date.parse('2020-01-01T00:00:00Z') }),
      );
    }
  });

  it('composes every V2 post node', async () => {
    const query =
      '{ posts(first: 20) { edges { node { id name tagline slug url votesCount commentsCount createdAt featuredAt thumbnail { url } user { id name username url profileImage } makers { id name username url profileImage } topics(first: 5) { edges { node { name } } } } } } }';
    const body = await getJson('/v2/api/graphql', { method: 'POST', body: JSON.stringify({ query }) });
    const edges = ((body.data as { posts: { edges: { node: unknown }[] } }).posts.edges ?? []).map(
      (e) => e.node,
    );
    const posts = parseAll(edges, v2PostSchema);
    expect(posts.length).toBeGreaterThan(0);
    posts.map((post) => composePostMessage(post)).forEach(expectWellFormed);
  });
});
