import type { z } from 'zod';
import {
  v1CollectionSchema,
  v1CommentSchema,
  v1LiveEventSchema,
  v1NotificationSchema,
  v1PostSchema,
  v2CollectionSchema,
  v2CommentSchema,
  v2PostSchema,
  v2UserProfileSchema,
} from '../directory/index.js';
import {
  composeCollectionMessage,
  composeCommentMessage,
  composeLiveEventMessage,
  composeNotificationMessage,
  composePostMessage,
  composeUserMessage,
} from '../messages/index.js';
import type { Message } from '../ports/index.js';

/**
 * Composing a message straight from one raw record as the directory serves it (for the
 * `render` CLI and fixtures): guess what it is, validate it with the client's own schemas,
 * compose. The pipeline never needs this; it gets typed records from the client.
 */

export const RECORD_KINDS = ['comment', 'collection', 'live', 'notification', 'post', 'user'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export interface KindGuess {
  kind: RecordKind;
  /** Why, for the person who did not pass `--kind`. */
  reason: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const WRAPPER_KEYS: Readonly<Record<string, RecordKind>> = {
  comment: 'comment',
  comments: 'comment',
  collection: 'collection',
  collections: 'collection',
  live_event: 'live',
  live_events: 'live',
  notification: 'notification',
  notifications: 'notification',
  post: 'post',
  posts: 'post',
  user: 'user',
};

/** One record found in what was pasted, with the kind its wrapper named (`{"comments": […]}`, `data.post`). */
export interface FoundRecord {
  record: unknown;
  kind?: RecordKind;
}

export type UnwrapResult = { ok: true; records: FoundRecord[] } | { ok: false; problem: string };

/** Keys that may sit beside `data` in a GraphQL answer. */
const GRAPHQL_ENVELOPE = new Set(['data', 'errors', 'extensions']);

/** The records of a V2 connection, `{ edges: [{ node }] }` or `{ nodes: [...] }`; undefined for anything else. */
function connectionRecords(value: Json): unknown[] | undefined {
  const edges = value['edges'];
  if (Array.isArray(edges))
    return edges.map((edge) => (isObject(edge) && 'node' in edge ? edge['node'] : edge));
  const nodes = value['nodes'];
  return Array.isArray(nodes) ? nodes : undefined;
}

/** What a wrapper key holds: a V1 list, a V2 connection, or one record. */
function wrappedRecords(inner: unknown): unknown[] {
  if (Array.isArray(inner)) return inner;
  if (isObject(inner)) return connectionRecords(inner) ?? [inner];
  return [inner];
}

function withKind(records: readonly unknown[], kind: RecordKind | undefined): FoundRecord[] {
  return records.map((record) => (kind === undefined ? { record } : { record, kind }));
}

/**
 * Takes the records out of what people paste: a GraphQL answer (`{ data: { post } }`, or a
 * connection `{ data: { posts: { edges: [{ node }] } } }`, with or without `data`, with `edges`
 * or `nodes`), a V1 list (`{ "comments": [ … ] }`), `{ "comment": { … } }`, a JSON array of
 * records, or one bare record. A GraphQL answer holding only errors, or an empty list, is a
 * problem to report rather than nothing to print.
 */
export function unwrapRecords(value: unknown): UnwrapResult {
  let current = value;
  if (isObject(current) && 'data' in current && Object.keys(current).every((k) => GRAPHQL_ENVELOPE.has(k))) {
    const errors = current['errors'];
    if (!isObject(current['data'])) {
      const first = Array.isArray(errors) && isObject(errors[0]) ? errors[0]['message'] : undefined;
      return {
        ok: false,
        problem: `the GraphQL answer holds no data${typeof first === 'string' ? `, only the error "${first}"` : ''}`,
      };
    }
    current = current['data'];
  }
  let records: FoundRecord[];
  if (Array.isArray(current)) {
    records = withKind(current, undefined);
  } else if (isObject(current)) {
    const keys = Object.keys(current);
    const connection = connectionRecords(current);
    if (connection !== undefined) {
      records = withKind(connection, undefined);
    } else if (keys.length > 0 && keys.every((key) => Object.hasOwn(WRAPPER_KEYS, key))) {
      // One wrapper, or several roots of one GraphQL query (`{ posts {…} collections {…} }`).
      records = keys.flatMap((key) => withKind(wrappedRecords(current[key]), WRAPPER_KEYS[key]));
    } else {
      records = [{ record: current }];
    }
  } else {
    records = [{ record: current }];
  }
  if (records.length === 0) return { ok: false, problem: 'the list holds no records' };
  return { ok: true, records };
}

const has = (record: Json, keys: readonly string[]) => keys.find((key) => Object.hasOwn(record, key));

const TYPENAMES: Readonly<Record<string, RecordKind>> = {
  Post: 'post',
  Comment: 'comment',
  Collection: 'collection',
  User: 'user',
};

/** Ordered: a live event also has a tagline and a collection may too, so the distinctive keys come first. */
const SIGNATURES: readonly [RecordKind, readonly string[]][] = [
  ['comment', ['body']],
  ['live', ['starts_at', 'ends_at', 'live_video', 'schedule_image_url']],
  [
    'collection',
    ['collection_url', 'posts_count', 'subscriber_count', 'color', 'followersCount', 'coverImage'],
  ],
  [
    'post',
    [
      'votesCount',
      'commentsCount',
      'votes_count',
      'comments_count',
      'makers',
      'topics',
      'discussion_url',
      'thumbnail',
    ],
  ],
  ['notification', ['sentence', 'notification_type', 'reference_type', 'reference_id', 'seen', 'from_user']],
  ['user', ['username', 'madePosts', 'followedCollections', 'twitterUsername']],
  ['post', ['tagline', 'slug']],
];

/** Guesses the kind of a raw record from its distinctive keys; undefined when nothing fits. */
export function guessRecordKind(record: unknown): KindGuess | undefined {
  if (!isObject(record)) return undefined;
  const typename = record['__typename'];
  if (typeof typename === 'string' && Object.hasOwn(TYPENAMES, typename)) {
    const kind = TYPENAMES[typename];
    if (kind) return { kind, reason: `its __typename is "${typename}"` };
  }
  for (const [kind, keys] of SIGNATURES) {
    const key = has(record, keys);
    if (key !== undefined) return { kind, reason: `it has "${key}"` };
  }
  return undefined;
}

/**
 * V2 nodes use camelCase (`createdAt`, `votesCount`), V1 records snake_case (`created_at`).
 * With neither, the kind's usual interface wins: posts are read from V2, the rest from V1.
 */
function looksV2(record: Json, kind: RecordKind): boolean {
  const keys = Object.keys(record).filter((key) => key !== '__typename');
  const snake = keys.some((key) => key.includes('_'));
  const camel = keys.some((key) => /[a-z][A-Z]/.test(key));
  if (camel !== snake) return camel;
  return kind === 'post' || kind === 'user' || typeof record['__typename'] === 'string';
}

function schemaFor(kind: RecordKind, record: Json): { schema: z.ZodType<unknown>; source: string } {
  const v2 = looksV2(record, kind);
  switch (kind) {
    case 'comment':
      return v2
        ? { schema: v2CommentSchema, source: 'V2 comment' }
        : { schema: v1CommentSchema, source: 'V1 comment' };
    case 'collection':
      return v2
        ? { schema: v2CollectionSchema, source: 'V2 collection' }
        : { schema: v1CollectionSchema, source: 'V1 collection' };
    case 'live':
      return { schema: v1LiveEventSchema, source: 'V1 live event' };
    case 'notification':
      return { schema: v1NotificationSchema, source: 'V1 notification' };
    case 'post':
      return v2 ? { schema: v2PostSchema, source: 'V2 post' } : { schema: v1PostSchema, source: 'V1 post' };
    case 'user':
      return { schema: v2UserProfileSchema, source: 'V2 user' };
  }
}

export type RawComposeResult =
  | { ok: true; message: Message; source: string; parsed: unknown }
  | { ok: false; source: string; problems: string[] };

/**
 * Validates a raw record of the given kind with the directory client's schema (V1 or V2 by
 * its shape) and composes its message; on failure, each problem as `path: what is wrong`.
 */
export function composeRawRecord(kind: RecordKind, record: unknown): RawComposeResult {
  if (!isObject(record)) {
    return {
      ok: false,
      source: kind,
      problems: [`(the record): expected a JSON object, got ${describe(record)}`],
    };
  }
  const { schema, source } = schemaFor(kind, record);
  const parsed = schema.safeParse(record);
  if (!parsed.success)
    return { ok: false, source, problems: parsed.error.issues.map((issue) => describeIssue(issue, record)) };
  // `parsed` is the client's typed record (a DirectoryPost for `post`): what a digest ranks by.
  return { ok: true, source, message: composeParsed(kind, parsed.data), parsed: parsed.data };
}

function composeParsed(kind: RecordKind, data: unknown): Message {
  // The schema for `kind` produced `data`, so these casts restate what schemaFor chose.
  switch (kind) {
    case 'comment':
      return composeCommentMessage(data as Parameters<typeof composeCommentMessage>[0]);
    case 'collection':
      return composeCollectionMessage(data as Parameters<typeof composeCollectionMessage>[0]);
    case 'live':
      return composeLiveEventMessage(data as Parameters<typeof composeLiveEventMessage>[0]);
    case 'notification':
      return composeNotificationMessage(data as Parameters<typeof composeNotificationMessage>[0]);
    case 'post':
      return composePostMessage(data as Parameters<typeof composePostMessage>[0]);
    case 'user':
      return composeUserMessage(data as Parameters<typeof composeUserMessage>[0]);
  }
}

/** A value as the person who wrote the JSON would recognise it: `-5`, `"abc"`, `null`, `an object`. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** The value at a zod issue's path inside the record, to say "missing" or what was there. */
function valueAt(record: unknown, path: readonly PropertyKey[]): unknown {
  let current = record;
  for (const part of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/** One zod issue in plain words, e.g. `body: missing (expected a string)`. */
export function describeIssue(issue: z.core.$ZodIssue, record: unknown): string {
  const path =
    issue.path.length === 0
      ? '(the record)'
      : issue.path
          .map((part, i) =>
            typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`,
          )
          .join('');
  const value = valueAt(record, issue.path);
  if (
    value === undefined &&
    issue.path.length > 0 &&
    (issue.code === 'invalid_type' || issue.code === 'invalid_union')
  ) {
    return `${path}: missing`;
  }
  if (issue.code === 'invalid_type') {
    const expected = `a${/^[aeiou]/.test(issue.expected) ? 'n' : ''} ${issue.expected}`;
    return `${path}: expected ${expected}, got ${describe(value)}`;
  }
  if (issue.code === 'invalid_union') return `${path}: ${describe(value)} is not an accepted value`;
  return `${path}: ${issue.message}`;
}
