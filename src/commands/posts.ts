import { z } from 'zod';
import { composePostMessage } from '../messages/index.js';
import { isCalendarDay } from './arg-formats.js';
import type { LookupCommand } from './command-module.js';
import { INTERACTIVE } from './interactive.js';
import { DEFAULT_COUNT, intArg, LOOKUP, plural, stringArg } from './lookup-helpers.js';
import { lookupReply } from './replies.js';
import { resultCount } from './shared-options.js';

const DAY_MS = 86_400_000;

export const posts: LookupCommand = {
  spec: {
    name: 'posts',
    kind: 'lookup',
    description: "A day's posts by votes (UTC days)",
    usage: 'posts [today|YYYY-MM-DD] [--top N]',
    examples: ['posts', 'posts 2025-01-31 --top 3'],
    options: [
      {
        name: 'day',
        description: 'today (the default) or a date like 2025-01-31',
        type: 'string',
        required: false,
        positional: true,
        maxLength: 10,
        schema: z.string().refine((value) => value.toLowerCase() === 'today' || isCalendarDay(value), {
          error: 'today or a date like 2025-01-31',
        }),
      },
      resultCount('top', 'posts'),
    ],
  },
  run({ args, deps: { client, clock } }) {
    // Days are UTC days, said in the reply and the help: every time the bot shows is UTC,
    // and V2 filters by instants, so no service calendar is involved (unlike V1 live dates).
    const requested = stringArg(args, 'day');
    const day =
      requested === undefined || requested.toLowerCase() === 'today'
        ? new Date(clock.now()).toISOString().slice(0, 10)
        : requested;
    const top = intArg(args, 'top', DEFAULT_COUNT);
    return {
      key: `posts ${day} top:${top}`,
      async fetch() {
        const start = Date.parse(`${day}T00:00:00.000Z`);
        const page = await client.listPosts(
          {
            first: top,
            order: 'VOTES',
            // `postedAfter` is exclusive: a millisecond earlier keeps a post made at 00:00:00.000.
            postedAfter: new Date(start - 1).toISOString(),
            postedBefore: new Date(start + DAY_MS).toISOString(),
          },
          INTERACTIVE,
        );
        const found = page.nodes.slice(0, top);
        if (found.length === 0) return lookupReply(`No posts on ${day} yet.`, []);
        return lookupReply(
          `Top ${plural(found.length, 'post')} of ${day} (UTC) by votes`,
          found.map((p) => composePostMessage(p, LOOKUP)),
        );
      },
    };
  },
};
