import { z } from 'zod';
import { composeCollectionMessage } from '../messages/index.js';
import type { LookupCommand } from './command-module.js';
import { INTERACTIVE } from './interactive.js';
import { DEFAULT_COUNT, stringArg } from './lookup-helpers.js';
import { lookupReply } from './replies.js';
import { username } from './shared-options.js';

export const collections: LookupCommand = {
  spec: {
    name: 'collections',
    kind: 'lookup',
    description: 'Recent collections, featured ones or those of one user',
    usage: 'collections [featured] [--by <username>]',
    examples: ['collections featured', 'collections --by jane_doe'],
    options: [
      {
        name: 'featured',
        description: 'Only featured collections',
        type: 'string',
        required: false,
        positional: true,
        choices: ['featured'],
        maxLength: 8,
        schema: z
          .string()
          .refine((value) => value.toLowerCase() === 'featured', { error: 'the word "featured" or nothing' }),
      },
      {
        name: 'by',
        description: 'Only collections made by this username',
        type: 'string',
        required: false,
        positional: false,
        maxLength: 51,
        autocomplete: false,
        schema: username,
      },
    ],
  },
  run({ args, deps: { client } }) {
    const featured = stringArg(args, 'featured') !== undefined;
    const by = stringArg(args, 'by')?.replace(/^@/, '');
    return {
      key: `collections featured:${featured} by:${by?.toLowerCase() ?? ''}`,
      async fetch() {
        const result = await client.listCollections(
          {
            perPage: DEFAULT_COUNT,
            // Featuring bumps updated_at, so that order lists the latest featured first.
            sortBy: featured ? 'updated_at' : 'created_at',
            order: 'desc',
            ...(featured ? { featured: true } : {}),
            ...(by ? { userUsername: by } : {}),
          },
          INTERACTIVE,
        );
        const found = result.items.slice(0, DEFAULT_COUNT);
        const what = `${featured ? 'featured ' : ''}collections${by ? ` by ${by}` : ''}`;
        if (found.length === 0) return lookupReply(`No ${what}.`, []);
        return lookupReply(`Latest ${what}`, found.map(composeCollectionMessage));
      },
    };
  },
};
