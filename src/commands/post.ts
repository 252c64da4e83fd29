import type { DirectoryClient, IdOrSlug } from '../directory/index.js';
import { composePostMessage } from '../messages/index.js';
import type { Lookup, LookupCommand } from './command-module.js';
import { INTERACTIVE } from './interactive.js';
import { describeRef, LOOKUP, notFound, postRefArg, refKey } from './lookup-helpers.js';
import { lookupReply } from './replies.js';
import { postRef } from './shared-options.js';

export const post: LookupCommand = {
  spec: {
    name: 'post',
    kind: 'lookup',
    description: 'One post: tagline, votes, comments, makers, topics and link',
    usage: 'post <id|slug|url>',
    examples: ['post 42', 'post notion-ai', 'post https://www.example-directory.test/posts/notion-ai'],
    options: [postRef],
  },
  run({ args, deps: { client } }) {
    return postLookup(client, postRefArg(args));
  },
};

/** One post by id or slug; a pasted link to it (link previews) shares the answer and its cache key. */
export function postLookup(client: DirectoryClient, ref: IdOrSlug): Lookup {
  return {
    key: `post ${refKey(ref)}`,
    async fetch() {
      const found = await client.getPost(ref, INTERACTIVE);
      if (!found) return notFound(`No post with ${describeRef(ref)}.`);
      return lookupReply(`Post: ${found.name}`, [composePostMessage(found, LOOKUP)]);
    },
  };
}
