import { composeCollectionMessage, composeCommentMessage, composeUserMessage } from '../messages/index.js';
import type { LookupCommand } from './command-module.js';
import { INTERACTIVE } from './interactive.js';
import { LOOKUP, notFound, stringArg } from './lookup-helpers.js';
import { lookupReply } from './replies.js';
import { username } from './shared-options.js';

/** How many of their collections and comments come with a user. */
const USER_EXTRAS = 3;

export const user: LookupCommand = {
  spec: {
    name: 'user',
    kind: 'lookup',
    description: 'A user, their collections and recent comments',
    usage: 'user <username>',
    examples: ['user jane_doe'],
    options: [
      {
        name: 'username',
        description: 'Username on the directory',
        type: 'string',
        required: true,
        positional: true,
        maxLength: 51,
        schema: username,
      },
    ],
  },
  run({ args, deps: { client } }) {
    const name = (stringArg(args, 'username') ?? '').replace(/^@/, '');
    return {
      key: `user ${name.toLowerCase()}`,
      async fetch() {
        const profile = await client.getUser({ username: name }, { ...INTERACTIVE, first: 5 });
        if (!profile) return notFound(`No user named ${name}.`);
        const messages = [composeUserMessage(profile)];
        // A redacted profile has no usable id or username to look further with.
        if (!profile.redacted) {
          const [collections, comments] = await Promise.all([
            client.listCollections(
              { userUsername: profile.username, perPage: USER_EXTRAS, sortBy: 'created_at', order: 'desc' },
              INTERACTIVE,
            ),
            client.listComments(
              { userId: profile.id, perPage: USER_EXTRAS, sortBy: 'created_at', order: 'desc' },
              INTERACTIVE,
            ),
          ]);
          messages.push(...collections.items.slice(0, USER_EXTRAS).map(composeCollectionMessage));
          messages.push(
            ...comments.items.slice(0, USER_EXTRAS).map((comment) => composeCommentMessage(comment, LOOKUP)),
          );
        }
        return lookupReply(`User: ${profile.redacted ? 'someone' : profile.username}`, messages);
      },
    };
  },
};
