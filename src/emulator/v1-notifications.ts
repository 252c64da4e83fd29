import type { V1Request, V1Result } from './v1-route.js';
import { serializeNotification } from './v1-serializers.js';

const DEFAULT_PER_PAGE = 20;

/**
 * GET /v1/notifications (spec 4.4): the viewer's unseen notifications, newest first.
 * `search[type]` defaults to `Post`; `all` lists every type. Weak ETag, as observed.
 */
export function listNotifications({ params, store, ctx }: V1Request): V1Result {
  const perPage = params.perPage(DEFAULT_PER_PAGE);
  const type = params.string('search[type]') ?? 'Post';
  const notifications = [...store.notifications.values()]
    .filter((n) => n.toUserId === ctx.viewerId && !n.seen && (type === 'all' || n.referenceType === type))
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
    .slice(0, perPage)
    .map((n) => serializeNotification(n, store, ctx));
  return { body: { notifications }, etag: 'weak' };
}

/** DELETE /v1/notifications (spec 4.5): clears the viewer's count and answers an empty list. */
export function clearNotifications({ store, ctx }: V1Request): V1Result {
  store.clearNotifications(ctx.viewerId);
  return { body: { notifications: [] }, etag: 'weak' };
}
