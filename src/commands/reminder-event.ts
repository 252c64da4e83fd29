import type { DirectoryClient, DirectoryLiveEvent, IdOrSlug } from '../directory/index.js';
import { parsePostRef } from './arg-formats.js';
import { INTERACTIVE } from './interactive.js';
import { listLiveEventsBetween } from './live-events-between.js';

/** How far back an id is looked for upstream, to tell "already started or ended" from "unknown". */
const LOOK_BACK_MS = 24 * 60 * 60_000;
/** Events read looking for one id: one or two pages of the listing, so a mistyped id costs little quota. */
const ID_SEARCH_COUNT = 50;

/** A live event as people paste it: id, slug or a directory link (`…/live/<slug>`). */
export const parseLiveEventRef: (raw: string) => IdOrSlug | undefined = parsePostRef;

/** The slug in an event's link, the last segment of its path. */
function slugOf(event: DirectoryLiveEvent): string | undefined {
  if (event.url === undefined) return undefined;
  try {
    return new URL(event.url).pathname
      .split('/')
      .filter((s) => s !== '')
      .at(-1)
      ?.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Whether `event` is the one `ref` names. */
export function matches(event: DirectoryLiveEvent, ref: IdOrSlug): boolean {
  return 'id' in ref ? event.id === ref.id : slugOf(event) === ref.slug;
}

/**
 * Finds the event: first in the live feed's last listing (already in the store, no request),
 * then upstream with the interactive reserve — by `search[slug]` for a slug, by paging the
 * listing from a day ago for an id (the directory has no single-event endpoint). Undefined
 * when the directory lists no such event.
 */
export async function findLiveEvent(
  ref: IdOrSlug,
  listed: readonly DirectoryLiveEvent[],
  client: DirectoryClient,
  now: number,
): Promise<DirectoryLiveEvent | undefined> {
  const known = listed.find((e) => matches(e, ref));
  if (known !== undefined) return known;
  if ('slug' in ref) {
    const result = await client.listLiveEvents({ slug: ref.slug, perPage: 5 }, INTERACTIVE);
    return result.items.find((e) => matches(e, ref)) ?? result.items[0];
  }
  const around = await listLiveEventsBetween(client, {
    from: now - LOOK_BACK_MS,
    until: Number.POSITIVE_INFINITY,
    video: false,
    count: ID_SEARCH_COUNT,
  });
  return around.find((e) => matches(e, ref));
}
