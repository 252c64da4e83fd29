import { type DirectoryClient, type LinkTarget, linkTarget } from '../directory/index.js';
import { composeLiveEventMessage, composeUserMessage } from '../messages/index.js';
import type { Clock, CommandReply, LinkPreview, LinkPreviewRequest } from '../ports/index.js';
import { postLink } from './arg-formats.js';
import { collectionLookup } from './collection.js';
import type { Lookup } from './command-module.js';
import type { DirectoryLinks } from './directory-links.js';
import { INTERACTIVE } from './interactive.js';
import { notFound } from './lookup-helpers.js';
import { postLookup } from './post.js';
import { lookupReply } from './replies.js';
import type { PreviewEvent } from './types.js';

/**
 * Link previews: a directory link pasted in a conversation becomes the card the bot would post
 * for the record it names (`linkTarget`: the pages that name one; anything else on the site is
 * not previewed).
 */
export { type LinkTarget, linkTarget } from '../directory/index.js';

/**
 * A user's card alone: a preview shows the profile, not the collections and comments
 * `/directory user` adds, so it costs one request instead of three.
 */
function userCardLookup(client: DirectoryClient, username: string): Lookup {
  const name = username.toLowerCase();
  return {
    key: `user card ${name}`,
    async fetch() {
      const profile = await client.getUser({ username }, INTERACTIVE);
      if (!profile) return notFound(`No user named ${username}.`);
      return lookupReply(`User: ${profile.redacted ? 'someone' : profile.username}`, [
        composeUserMessage(profile),
      ]);
    },
  };
}

/** One live event by slug (GET /v1/live `search[slug]`, spec 4.7). */
function liveEventLookup(client: DirectoryClient, clock: Clock, slug: string): Lookup {
  return {
    key: `live event ${slug}`,
    async fetch() {
      const found = (await client.listLiveEvents({ slug, perPage: 1 }, INTERACTIVE)).items[0];
      if (!found) return notFound(`No live event with slug ${slug}.`);
      return lookupReply(`Live event: ${found.name}`, [composeLiveEventMessage(found, { now: clock.now() })]);
    },
  };
}

function lookupOf(target: LinkTarget, client: DirectoryClient, clock: Clock): Lookup {
  switch (target.kind) {
    case 'post':
      return postLookup(client, target.ref);
    case 'collection':
      return collectionLookup(client, target.slug);
    case 'user':
      return userCardLookup(client, target.username);
    case 'live':
      return liveEventLookup(client, clock, target.slug);
  }
}

/** The card in a lookup's answer, or why there is none. */
function previewOf(reply: CommandReply): LinkPreview {
  const message = reply.messages[0];
  if (reply.error === undefined && message !== undefined) return { status: 'found', message };
  switch (reply.error?.code) {
    case undefined:
    case 'upstream_not_found':
      return { status: 'none', reason: 'not_found' };
    case 'command_rate_limited':
      return { status: 'none', reason: 'rate_limited' };
    default:
      return { status: 'none', reason: 'failed' };
  }
}

export interface LinkPreviewDependencies {
  client: DirectoryClient;
  clock: Clock;
  directoryLinks: DirectoryLinks;
  /**
   * The command handler's lookup path: its cache (shared with the commands naming the same
   * record), the per-person limit and the coalescing of identical lookups in flight.
   */
  lookup(
    who: { platform: string; userId: string },
    lookup: Lookup,
  ): Promise<{ reply: CommandReply; cached: boolean }>;
  onEvent(event: PreviewEvent): void;
}

/** `preview` of the command handler (see `CommandHandler.preview`). */
export function createLinkPreviews(deps: LinkPreviewDependencies) {
  async function answer(request: LinkPreviewRequest): Promise<{ preview: LinkPreview; cached: boolean }> {
    const url = postLink(request.url);
    if (url === undefined || !deps.directoryLinks.accepts(url.hostname))
      return { preview: { status: 'none', reason: 'other_site' }, cached: false };
    const target = linkTarget(url);
    if (target === undefined) return { preview: { status: 'none', reason: 'not_an_item' }, cached: false };
    const { reply, cached } = await deps.lookup(request, lookupOf(target, deps.client, deps.clock));
    return { preview: previewOf(reply), cached };
  }

  return async function preview(request: LinkPreviewRequest): Promise<LinkPreview> {
    let outcome: { preview: LinkPreview; cached: boolean };
    try {
      outcome = await answer(request);
    } catch {
      // The lookup path answers failures as replies; this is for anything it did not expect.
      outcome = { preview: { status: 'none', reason: 'failed' }, cached: false };
    }
    const { preview, cached } = outcome;
    deps.onEvent({
      platform: request.platform,
      result: preview.status === 'found' ? 'found' : preview.reason,
      cached,
    });
    return preview;
  };
}
