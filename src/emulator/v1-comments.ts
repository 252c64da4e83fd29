import { pageById } from './v1-listing.js';
import type { V1Request, V1Result } from './v1-route.js';
import { serializeComment } from './v1-serializers.js';

/**
 * GET /v1/comments (spec 4.6). `search[user_id]` / `search[post_id]` filter and drop the
 * nested `user` / `post` respectively.
 */
export function listComments({ params, store, ctx }: V1Request): V1Result {
  const userId = params.id('search[user_id]');
  const postId = params.id('search[post_id]');
  const matching = [...store.comments.values()].filter(
    (c) => (userId === undefined || c.userId === userId) && (postId === undefined || c.postId === postId),
  );
  const nest = { user: userId === undefined, post: postId === undefined };
  const comments = pageById(matching, params).map((c) => serializeComment(c, store, ctx, nest));
  return { body: { comments }, etag: 'strong' };
}
