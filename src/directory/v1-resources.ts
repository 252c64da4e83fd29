import type { z } from 'zod';
import { BotError } from '../errors.js';
import type { EtagCache } from './etag-cache.js';
import type { DirectoryEventSink } from './events.js';
import type { Transport, TransportRequest } from './http-transport.js';
import { parseRecords } from './parse-records.js';
import type {
  CallOptions,
  DirectoryCollection,
  DirectoryComment,
  DirectoryLiveEvent,
  DirectoryNotification,
  ListResult,
} from './types.js';
import {
  v1CollectionSchema,
  v1CommentSchema,
  v1Envelopes,
  v1LiveEventSchema,
  v1NotificationSchema,
} from './v1-records.js';

/** The deprecated V1 REST endpoints (spec 4.3–4.7), one typed function each. */

export type SortBy = 'id' | 'created_at' | 'updated_at';

export interface ListCommentsParams {
  /** Cursor: comments newer than this id. The spec applies `sort_by` after the cursor. */
  newer?: string | number;
  older?: string | number;
  page?: number;
  /** At most 50. */
  perPage?: number;
  sortBy?: SortBy;
  order?: 'asc' | 'desc';
  userId?: string | number;
  postId?: string | number;
}

export interface ListCollectionsParams {
  newer?: string | number;
  older?: string | number;
  page?: number;
  perPage?: number;
  sortBy?: SortBy;
  order?: 'asc' | 'desc';
  /** Only collections that have been featured. */
  featured?: boolean;
  slug?: string;
  userUsername?: string;
  subscriberId?: string | number;
}

export interface ListLiveEventsParams {
  offset?: number;
  perPage?: number;
  /** `YYYY-MM-DD`: events starting before that day. */
  older?: string;
  /** `YYYY-MM-DD`: events starting after that day (undated events included). */
  newer?: string;
  /** `YYYY-MM`, or `false` for events without a start date. */
  date?: string | false;
  liveVideo?: boolean;
  slug?: string;
}

export interface ListNotificationsParams {
  perPage?: number;
  /** Reference type; the service defaults to `Post`; `all` lists every type. */
  type?: string;
}

export interface V1Resources {
  listComments(params?: ListCommentsParams, options?: CallOptions): Promise<ListResult<DirectoryComment>>;
  listCollections(
    params?: ListCollectionsParams,
    options?: CallOptions,
  ): Promise<ListResult<DirectoryCollection>>;
  listLiveEvents(
    params?: ListLiveEventsParams,
    options?: CallOptions,
  ): Promise<ListResult<DirectoryLiveEvent>>;
  listNotifications(
    params?: ListNotificationsParams,
    options?: CallOptions,
  ): Promise<ListResult<DirectoryNotification>>;
  /** DELETE /v1/notifications: clears the token user's notification count. Never retried blindly. */
  clearNotifications(options?: CallOptions): Promise<void>;
}

/** Wires the V1 endpoints onto a transport. */
export function createV1Resources(deps: {
  transport: Transport;
  etags: EtagCache;
  onEvent: DirectoryEventSink;
}): V1Resources {
  const { transport, etags, onEvent } = deps;

  async function list<K extends keyof typeof v1Envelopes, T>(
    path: string,
    key: K,
    resource: string,
    schema: z.ZodType<T>,
    query: TransportRequest['query'],
    options: CallOptions,
  ): Promise<ListResult<T>> {
    const url = transport.urlFor(path, query);
    const cached = etags.get(url);
    const response = await transport.send({
      method: 'GET',
      path,
      ...(query ? { query } : {}),
      quotaClass: 'v1',
      cost: 1,
      kind: 'read',
      ...(cached ? { etag: cached.etag } : {}),
      priority: options.priority ?? 'background',
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (response.notModified) {
      // Nothing changed since the request that produced `cached`: hand back what was parsed
      // then, so a caller that failed to act on it the first time still can.
      // Its skipped count too: a removal check must not judge a page it could not read whole.
      return { items: (cached?.items ?? []) as T[], skipped: cached?.skipped ?? 0, notModified: true };
    }
    const envelope = v1Envelopes[key].safeParse(response.json);
    if (!envelope.success) {
      throw new BotError(
        'upstream_bad_response',
        `GET ${url}: body is not the documented { ${key}: [...] } envelope`,
        {
          method: 'GET',
          url,
          status: response.status,
          details: { issues: envelope.error.issues.slice(0, 3) },
        },
      );
    }
    const records = (envelope.data as Record<K, unknown[]>)[key];
    const parsed = parseRecords(records, schema, resource, onEvent);
    if (response.etag) etags.set(url, { etag: response.etag, items: parsed.items, skipped: parsed.skipped });
    return { items: parsed.items, skipped: parsed.skipped, notModified: false };
  }

  return {
    listComments(params = {}, options = {}) {
      return list(
        '/v1/comments',
        'comments',
        'comment',
        v1CommentSchema,
        {
          newer: params.newer,
          older: params.older,
          page: params.page,
          per_page: params.perPage,
          sort_by: params.sortBy,
          order: params.order,
          'search[user_id]': params.userId,
          'search[post_id]': params.postId,
        },
        options,
      );
    },
    listCollections(params = {}, options = {}) {
      return list(
        '/v1/collections',
        'collections',
        'collection',
        v1CollectionSchema,
        {
          newer: params.newer,
          older: params.older,
          page: params.page,
          per_page: params.perPage,
          sort_by: params.sortBy,
          order: params.order,
          'search[featured]': params.featured,
          'search[slug]': params.slug,
          'search[user_username]': params.userUsername,
          'search[subscriber_id]': params.subscriberId,
        },
        options,
      );
    },
    listLiveEvents(params = {}, options = {}) {
      return list(
        '/v1/live',
        'live_events',
        'live_event',
        v1LiveEventSchema,
        {
          offset: params.offset,
          per_page: params.perPage,
          older: params.older,
          newer: params.newer,
          'search[date]': params.date,
          'search[live_video]': params.liveVideo,
          'search[slug]': params.slug,
        },
        options,
      );
    },
    listNotifications(params = {}, options = {}) {
      return list(
        '/v1/notifications',
        'notifications',
        'notification',
        v1NotificationSchema,
        { per_page: params.perPage, 'search[type]': params.type },
        options,
      );
    },
    async clearNotifications(options = {}) {
      const path = '/v1/notifications';
      const response = await transport.send({
        method: 'DELETE',
        path,
        body: {},
        quotaClass: 'v1',
        cost: 1,
        kind: 'write',
        priority: options.priority ?? 'background',
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (!response.notModified && !v1Envelopes.notifications.safeParse(response.json).success) {
        throw new BotError('upstream_bad_response', `DELETE ${transport.urlFor(path)}: unexpected body`, {
          method: 'DELETE',
          url: transport.urlFor(path),
          status: response.status,
        });
      }
    },
  };
}
