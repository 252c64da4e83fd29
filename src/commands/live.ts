import { z } from 'zod';
import type { DirectoryLiveEvent } from '../directory/index.js';
import { composeLiveEventMessage } from '../messages/index.js';
import { isCalendarMonth } from './arg-formats.js';
import type { LookupCommand } from './command-module.js';
import { INTERACTIVE } from './interactive.js';
import { listLiveEventsBetween } from './live-events-between.js';
import { DEFAULT_COUNT, stringArg } from './lookup-helpers.js';
import { lookupReply } from './replies.js';

/** The live service pages posts at 20; `live undated` shows one page's worth at most. */
const LIVE_PAGE = 20;

/** `YYYY-MM` (validated by the parser) as the UTC instants it spans. */
function utcMonth(month: string): { from: number; until: number } {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return { from: Date.UTC(year, index - 1, 1), until: Date.UTC(year, index, 1) };
}

export const live: LookupCommand = {
  spec: {
    name: 'live',
    kind: 'lookup',
    description: 'Live events: upcoming, in a month (UTC), or without a date',
    usage: 'live [upcoming|YYYY-MM|undated] [--video]',
    examples: ['live', 'live 2025-03 --video', 'live undated'],
    options: [
      {
        name: 'when',
        description: 'upcoming (the default), a UTC month like 2025-03, or undated',
        type: 'string',
        required: false,
        positional: true,
        maxLength: 8,
        schema: z
          .string()
          .refine(
            (value) => ['upcoming', 'undated'].includes(value.toLowerCase()) || isCalendarMonth(value),
            {
              error: 'upcoming, undated or a month like 2025-03',
            },
          ),
      },
      {
        name: 'video',
        description: 'Only on-camera events',
        type: 'boolean',
        required: false,
        positional: false,
      },
    ],
  },
  run({ args, deps: { client, clock } }) {
    const when = (stringArg(args, 'when') ?? 'upcoming').toLowerCase();
    const video = args['video'] === true;
    return {
      key: `live ${when} video:${video}`,
      async fetch() {
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
          events.map((e) => composeLiveEventMessage(e, { now, occasion: 'lookup' })),
        );
      },
    };
  },
};
