import { composeCommentMessage } from '../messages/index.js';
import type { LookupCommand } from './command-module.js';
import { INTERACTIVE } from './interactive.js';
import {
  DEFAULT_COUNT,
  describeRef,
  intArg,
  LOOKUP,
  notFound,
  plural,
  postRefArg,
  refKey,
} from './lookup-helpers.js';
import { lookupReply } from './replies.js';
import { postRef, resultCount } from './shared-options.js';

export const comments: LookupCommand = {
  spec: {
    name: 'comments',
    kind: 'lookup',
    description: 'The latest comments on a post',
    usage: 'comments <post id|slug> [--limit N]',
    examples: ['comments 42', 'comments notion-ai --limit 3'],
    options: [{ ...postRef, description: 'Post id or slug' }, resultCount('limit', 'comments')],
  },
  run({ args, deps: { client } }) {
    const ref = postRefArg(args);
    const limit = intArg(args, 'limit', DEFAULT_COUNT);
    return {
      key: `comments ${refKey(ref)} limit:${limit}`,
      async fetch() {
        // V1 filters comments by post id only: a slug is resolved through V2 first.
        const post = 'slug' in ref ? await client.getPost(ref, INTERACTIVE) : undefined;
        if (post === null) return notFound(`No post with ${describeRef(ref)}.`);
        const postId = post?.id ?? ('id' in ref ? ref.id : '');
        const result = await client.listComments(
          { postId, perPage: limit, sortBy: 'created_at', order: 'desc' },
          INTERACTIVE,
        );
        const found = result.items.slice(0, limit).map((c) => (post && !c.post ? { ...c, post } : c));
        const on = post ? post.name : `post ${postId}`;
        if (found.length === 0) return lookupReply(`No comments on ${on} yet.`, []);
        return lookupReply(
          `Latest ${plural(found.length, 'comment')} on ${on}`,
          found.map((comment) => composeCommentMessage(comment, LOOKUP)),
        );
      },
    };
  },
};
