import type { DirectoryClient, DirectoryLiveEvent, IdOrSlug } from '../directory/index.js';
import {
  composeCollectionMessage,
  composeCommentMessage,
  composeLiveEventMessage,
  composePostMessage,
  composeUserMessage,
} from '../messages/index.js';
import type { Clock } from '../ports/clock.js';
import type { CommandReply } from '../ports/commands.js';
import { parsePostRef } from './arg-formats.js';
import type { ParsedArgs } from './command-spec.js';
import { INTERACTIVE } from './interactive.js';
import { listLiveEventsBetween } from './live-events-between.js';
import { errorReply, lookupReply } from './replies.js';

/** Lookups show records someone asked for, often old ones: never labelled "new". */
const LOOKUP = { occasion: 'lookup' } as const;

const DEFAULT_COUNT = 5;
/** The live service pages posts at 20; `live undated` shows one page's worth at most. */
const LIVE_PAGE = 20;
const USER_EXTRAS = 3;
const DAY_MS = 86_400_000;

export interface LookupContext {
  client: DirectoryClient;
  clock: Clock;
}

/**
 * A lookup split in two: `key` names the answer independently of how it was typed (for the
 * cache), `run` fetches it.
 */
export interface PreparedLookup {
  key: string;
  run(): Promise<CommandReply>;
}

const str = (args: ParsedArgs, name: string): string | undefined => {
  const value = args[name];
  return typeof value === 'string' ? value : undefined;
};
const int = (args: ParsedArgs, name: string, fallback: number): number => {
  const value = args[name];
  return typeof value === 'number' ? value : fallback;
};
const describeRef = (ref: IdOrSlug): string => ('id' in ref ? `id ${ref.id}` : `slug ${ref.slug}`);
const refKey = (ref: IdOrSlug): string => ('id' in ref ? `id:${ref.id}` : `slug:${ref.slug}`);
const notFound = (text: string) => errorReply('upstream_not_found', text);

function postRef(args: ParsedArgs): IdOrSlug {
  // The parser validated the reference already; this only converts it.
  return parsePostRef(str(args, 'post') ?? '') ?? { slug: '' };
}

/** `YYYY-MM` (validated by the parser) as the UTC instants it spans. */
function utcMonth(month: string): { from: number; until: number } {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return { from: Date.UTC(year, index - 1, 1), until: Date.UTC(year, index, 1) };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Prepares the lookup a command names; undefined for commands that are not lookups. */
export function prepareLookup(
  command: string,
  args: ParsedArgs,
  ctx: LookupContext,
): PreparedLookup | undefined {
  const { client, clock } = ctx;
  switch (command) {
    case 'post': {
      const ref = postRef(args);
      return {
        key: `post ${refKey(ref)}`,
        async run() {
          const post = await client.getPost(ref, INTERACTIVE);
          if (!post) return notFound(`No post with ${describeRef(ref)}.`);
          return lookupReply(`Post: ${post.name}`, [composePostMessage(post, LOOKUP)]);
        },
      };
    }
    case 'posts': {
      // Days are UTC days, said in the reply and the help: every time the bot shows is UTC,
      // and V2 filters by instants, so no service calendar is involved (unlike V1 live dates).
      const requested = str(args, 'day');
      const day =
        requested === undefined || requested.toLowerCase() === 'today'
          ? new Date(clock.now()).toISOString().slice(0, 10)
          : requested;
      const top = int(args, 'top', DEFAULT_COUNT);
      return {
        key: `posts ${day} top:${top}`,
        async run() {
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
          const posts = page.nodes.slice(0, top);
          if (posts.length === 0) return lookupReply(`No posts on ${day} yet.`, []);
          return lookupReply(
            `Top ${plural(posts.length, 'post')} of ${day} (UTC) by votes`,
            posts.map((post) => composePostMessage(post, LOOKUP)),
          );
        },
      };
    }
    case 'comments': {
      const ref = postRef(args);
      const limit = int(args, 'limit', DEFAULT_COUNT);
      return {
        key: `comments ${refKey(ref)} limit:${limit}`,
        async run() {
          // V1 filters comments by post id only: a slug is resolved through V2 first.
          const post = 'slug' in ref ? await client.getPost(ref, INTERACTIVE) : undefined;
          if (post === null) return notFound(`No post with ${describeRef(ref)}.`);
          const postId = post?.id ?? ('id' in ref ? ref.id : '');
          const result = await client.listComments(
            { postId, perPage: limit, sortBy: 'created_at', order: 'desc' },
            INTERACTIVE,
          );
          const comments = result.items.slice(0, limit).map((c) => (post && !c.post ? { ...c, post } : c));
          const on = post ? post.name : `post ${postId}`;
          if (comments.length === 0) return lookupReply(`No comments on ${on} yet.`, []);
          return lookupReply(
            `Latest ${plural(comments.length, 'comment')} on ${on}`,
            comments.map((comment) => composeCommentMessage(comment, LOOKUP)),
          );
        },
      };
    }
    case 'collection': {
      const slug = (str(args, 'slug') ?? '').toLowerCase();
      return {
        key: `collection ${slug}`,
        async run() {
          const collection = await client.getCollection({ slug }, INTERACTIVE);
          if (!collection) return notFound(`No collection with slug ${slug}.`);
          return lookupReply(`Collection: ${collection.name}`, [composeCollectionMessage(collection)]);
        },
      };
    }
    case 'collections': {
      const featured = str(args, 'featured') !== undefined;
      const by = str(args, 'by')?.replace(/^@/, '');
      return {
        key: `collections featured:${featured} by:${by?.toLowerCase() ?? ''}`,
        async run() {
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
          const collections = result.items.slice(0, DEFAULT_COUNT);
          const what = `${featured ? 'featured ' : ''}collections${by ? ` by ${by}` : ''}`;
          if (collections.length === 0) return lookupReply(`No ${what}.`, []);
          return lookupReply(`Latest ${what}`, collections.map(composeCollectionMessage));
        },
      };
    }
    case 'live': {
      const when = (str(args, 'when') ?? 'upcoming').toLowerCase();
      const video = args['video'] === true;
      return {
        key: `live ${when} video:${video}`,
        async run() {
          const now = clock.now();
          let events: DirectoryLiveEvent[];
          if (when === 'undated') {
            const result = await client.listLiveEvents(
              { perPage: LIVE_PAGE, date: false, ...(video ? { liveVideo: true } : {}) },
              INTERACTIVE,
            );
            events = result.items.slice(0, DEFAULT_COUNT);
          } else {
            // A month is a UTC month, like every day and time the bot shows; the service's own
            // `search[date]` month would follow its offset and mix in events shown as another month.
            const window = when === 'upcoming' ? { from: now, until: Infinity } : utcMonth(when);
            events = await listLiveEventsBetween(client, { ...window, video, count: DEFAULT_COUNT });
          }
          const what = `${when === 'undated' ? 'undated' : when === 'upcoming' ? 'upcoming' : ''} ${
            video ? 'on-camera ' : ''
          }live events${when !== 'upcoming' && when !== 'undated' ? ` in ${when} (UTC)` : ''}`
            .replace(/\s+/g, ' ')
            .trim();
          if (events.length === 0) return lookupReply(`No ${what}.`, []);
          return lookupReply(
            `${what.charAt(0).toUpperCase()}${what.slice(1)}`,
            events.map((e) => composeLiveEventMessage(e, { now })),
          );
        },
      };
    }
    case 'user': {
      const username = (str(args, 'username') ?? '').replace(/^@/, '');
      return {
        key: `user ${username.toLowerCase()}`,
        async run() {
          const profile = await client.getUser({ username }, { ...INTERACTIVE, first: 5 });
          if (!profile) return notFound(`No user named ${username}.`);
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
              ...comments.items
                .slice(0, USER_EXTRAS)
                .map((comment) => composeCommentMessage(comment, LOOKUP)),
            );
          }
          return lookupReply(`User: ${profile.redacted ? 'someone' : profile.username}`, messages);
        },
      };
    }
    default:
      return undefined;
  }
}
