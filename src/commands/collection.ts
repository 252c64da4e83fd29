import type { DirectoryClient } from '../directory/index.js';
import { composeCollectionMessage } from '../messages/index.js';
import type { Lookup, LookupCommand } from './command-module.js';
import { INTERACTIVE } from './interactive.js';
import { notFound, stringArg } from './lookup-helpers.js';
import { lookupReply } from './replies.js';
import { slug } from './shared-options.js';

export const collection: LookupCommand = {
  spec: {
    name: 'collection',
    kind: 'lookup',
    description: 'One collection',
    usage: 'collection <slug>',
    examples: ['collection ai-tools'],
    options: [
      {
        name: 'slug',
        description: 'Collection slug',
        type: 'string',
        required: true,
        positional: true,
        maxLength: 100,
        schema: slug('collection'),
      },
    ],
  },
  run({ args, deps: { client } }) {
    return collectionLookup(client, stringArg(args, 'slug') ?? '');
  },
};

/** One collection by slug; a pasted link to it (link previews) shares the answer and its cache key. */
export function collectionLookup(client: DirectoryClient, slug: string): Lookup {
  const wanted = slug.toLowerCase();
  return {
    key: `collection ${wanted}`,
    async fetch() {
      const found = await client.getCollection({ slug: wanted }, INTERACTIVE);
      if (!found) return notFound(`No collection with slug ${wanted}.`);
      return lookupReply(`Collection: ${found.name}`, [composeCollectionMessage(found)]);
    },
  };
}
