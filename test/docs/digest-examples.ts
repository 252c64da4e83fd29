import type { DigestInput, HeldItem } from '../../src/messages/digest-input.js';
import type { Message } from '../../src/ports/index.js';

/**
 * The digests docs/commands.md shows: a channel in Berlin with a daily top-5 at 09:00, quiet
 * hours 22:00–07:00 and at most 10 comments an hour. digest-docs.test.ts renders these and
 * checks the docs show what the renderers print.
 */

const ZONE = 'Europe/Berlin';
const MINUTE = 60_000;
/** 09:00 in Berlin, Monday 23 November 2026. */
const NINE = Date.parse('2026-11-23T08:00:00Z');
const SITE = 'https://www.example-directory.test/posts/';

function post(slug: string, name: string, votes: number, comments: number, minutesBefore: number): HeldItem {
  const message: Message = { kind: 'post', title: name, url: SITE + slug, fallback: `New post: ${name}` };
  return {
    itemKey: `post:${slug}`,
    feed: 'posts',
    message,
    discoveredAt: NINE - minutesBefore * MINUTE,
    reason: 'digest',
    votes,
    comments,
  };
}

function comment(
  id: number,
  by: string,
  on: string,
  body: string,
  at: number,
  reason: HeldItem['reason'],
): HeldItem {
  const message: Message = {
    kind: 'comment',
    title: `New comment on ${on}`,
    url: `${SITE}${on.toLowerCase().replaceAll(' ', '-')}?comment=${id}`,
    text: body,
    fallback: `New comment by ${by} on "${on}": ${body}`,
  };
  return { itemKey: `comment:${id}`, feed: 'comments', message, discoveredAt: at, reason };
}

const posts = [
  post('analytical-engine', 'Analytical Engine', 120, 14, 600),
  post('difference-engine', 'Difference Engine', 96, 22, 300),
  post('jacquard-loom', 'Jacquard Loom', 96, 9, 700),
  post('tabulating-machine', 'Tabulating Machine', 81, 5, 200),
  post('enigma-notes', 'Enigma Notes', 64, 31, 500),
  post('slide-rule', 'Slide Rule', 12, 2, 100),
  post('abacus-pro', 'Abacus Pro', 7, 0, 50),
];

const daily: DigestInput = {
  kind: 'digest',
  feed: 'posts',
  items: posts,
  top: 5,
  period: { from: NINE - 24 * 60 * MINUTE, to: NINE },
  zone: ZONE,
  recurrence: { every: 'daily', at: { hour: 9, minute: 0 } },
};

/** 22:00 on Sunday to 07:00 on Monday, Berlin. */
const QUIET_FROM = Date.parse('2026-11-22T21:00:00Z');
const QUIET_TO = Date.parse('2026-11-23T06:00:00Z');
const night = [
  ['Grace Hopper', 'Analytical Engine', 'Does it compile COBOL?'],
  ['Alan Turing', 'Enigma Notes', 'The rotor diagram is wrong on page 3.'],
  ['Ada Lovelace', 'Analytical Engine', 'Thanks, Grace: not yet!'],
  ['Charles Babbage', 'Difference Engine', 'Shipping the second model next week.'],
  ['Hedy Lamarr', 'Enigma Notes', 'Frequency hopping would fix that.'],
  ['Grace Hopper', 'Jacquard Loom', 'Punched cards forever.'],
] as const;

/** 14:00–15:00 on Monday, Berlin: ten comments were posted, these three were held. */
const CAP_FROM = Date.parse('2026-11-23T13:00:00Z');

export const DIGEST_EXAMPLES: Record<'daily top 5' | 'quiet hours' | 'cap' | 'late', DigestInput> = {
  'daily top 5': daily,
  'quiet hours': {
    kind: 'quiet',
    feed: 'comments',
    items: night.map(([by, on, body], i) =>
      comment(402200 + i, by, on, body, QUIET_FROM + (i * 80 + 15) * MINUTE, 'quiet'),
    ),
    period: { from: QUIET_FROM, to: QUIET_TO },
    zone: ZONE,
  },
  cap: {
    kind: 'cap',
    feed: 'comments',
    items: [
      comment(
        402310,
        'Ada Lovelace',
        'Analytical Engine',
        'The notes are up.',
        CAP_FROM + 41 * MINUTE,
        'cap',
      ),
      comment(402311, 'Alan Turing', 'Enigma Notes', 'Fixed page 3.', CAP_FROM + 48 * MINUTE, 'cap'),
      comment(
        402312,
        'Grace Hopper',
        'Analytical Engine',
        'Found a moth in it.',
        CAP_FROM + 55 * MINUTE,
        'cap',
      ),
    ],
    period: { from: CAP_FROM, to: CAP_FROM + 60 * MINUTE },
    zone: ZONE,
    cap: { max: 10, per: 'hour' },
  },
  late: { ...daily, lateFor: NINE },
};

/**
 * A busy hour of comments, 14:00–15:00 on Monday in Berlin, with an hourly digest: more lines than
 * one message holds, so it is one message in the channel with the rest in its thread (Slack,
 * Discord) or counted on it (the console). docs/commands.md shows its first message both ways.
 */
export const BUSY_HOUR: DigestInput = {
  kind: 'digest',
  feed: 'comments',
  items: Array.from({ length: 24 }, (_, i) => {
    const [by, on, body] = night[i % night.length]!;
    return comment(402400 + i, by, on, body, CAP_FROM + (i * 2 + 1) * MINUTE, 'digest');
  }),
  period: { from: CAP_FROM, to: CAP_FROM + 60 * MINUTE },
  zone: ZONE,
  recurrence: { every: 'hourly' },
};
