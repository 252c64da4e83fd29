/** The feeds the bot publishes; every subscription, command and stored key names one of these. */
export const FEED_NAMES = ['posts', 'comments', 'collections', 'live', 'notifications'] as const;
export type FeedName = (typeof FEED_NAMES)[number];

export function isFeedName(value: string): value is FeedName {
  return (FEED_NAMES as readonly string[]).includes(value);
}
