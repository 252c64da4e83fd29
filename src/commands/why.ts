import { z } from 'zod';
import {
  explainItem,
  type ItemExplanation,
  parseItemRef,
  type SubscriptionVerdict,
} from '../accounting/index.js';
import type { CommandReply } from '../ports/index.js';
import type { ActionCommand } from './command-module.js';
import { errorReply, infoMessage, infoReply } from './replies.js';

/** How `why` names each verdict in its lead line, in the order it counts them. */
const COUNTED: readonly [SubscriptionVerdict['verdict'], string][] = [
  ['delivered', 'posted'],
  ['queued', 'waiting to post'],
  ['held', 'held'],
  ['duplicate', 'a duplicate'],
  ['failed', 'failed'],
  ['paused', 'paused'],
  ['filtered', 'filtered out'],
  ['not_polled', 'not polled yet'],
  ['too_old', 'too old'],
  ['no_record', 'no record'],
  ['not_this_feed', 'another feed'],
];

/** One line per subscription, as the explanation words it, with the link to the message after it. */
export function verdictLines(explanation: ItemExplanation, feeds: ReadonlyMap<string, string>): string[] {
  return explanation.lines.map((line) => {
    const feed = feeds.get(line.subscriptionId);
    const link = line.link === undefined ? '' : ` ${line.link}`;
    return `${line.subscriptionId}${feed === undefined ? '' : ` (${feed})`}: ${line.text}${link}`;
  });
}

/** The answer to `why`: a lead line counting the verdicts, then the item and one line per subscription. */
export function whyReply(explanation: ItemExplanation, feeds: ReadonlyMap<string, string>): CommandReply {
  const { item, notice, lines } = explanation;
  if (item === undefined) return infoReply(notice ?? 'Nothing to say about that item here.');
  const counts = COUNTED.flatMap(([verdict, words]) => {
    const n = lines.filter((line) => line.verdict === verdict).length;
    return n === 0 ? [] : [`${words} ${n}`];
  });
  const lead = `Why "${item.title}" here: ${lines.length === 1 ? 'one subscription' : `${lines.length} subscriptions`}${
    counts.length > 0 ? ` (${counts.join(', ')})` : ''
  }.`;
  const text = [
    ...(item.url === undefined ? [] : [item.url]),
    ...(notice === undefined ? [] : [notice]),
    ...verdictLines(explanation, feeds),
  ].join('\n');
  return infoReply(lead, [infoMessage(`Why: ${item.title}`, text)]);
}

/**
 * `why <item>`: for each subscription of this channel, what became of the item — posted (when,
 * with a link), waiting in the outbox, held by the schedule, filtered out, a duplicate, not polled
 * yet, too old, failed or paused. Answered from what the bot keeps; asks the directory at most
 * once (the person's lookup allowance, the lookup reserve), and only when those do not settle it.
 */
export const why: ActionCommand = {
  spec: {
    name: 'why',
    kind: 'local',
    description: 'Why an item was or was not posted here, subscription by subscription',
    usage: 'why <item link or id>',
    examples: [
      'why https://www.example-directory.test/posts/notion-ai',
      'why https://www.example-directory.test/posts/notion-ai?comment=812',
      'why 42',
      'why comment:812',
    ],
    options: [
      {
        name: 'item',
        description: 'A directory link to the item, or its id: 42, comment:812, live:ama-week…',
        type: 'string',
        required: true,
        positional: true,
        maxLength: 500,
        schema: z.string().trim().min(1),
      },
    ],
  },
  async run({ invocation, args, deps, spec, spendLookupAllowance }) {
    const raw = typeof args['item'] === 'string' ? args['item'] : '';
    const parsed = parseItemRef(raw, deps.directoryLinks);
    if ('notice' in parsed) return errorReply('command_usage', parsed.notice, spec.usage, 'item');
    if (deps.why === undefined)
      return infoReply('This bot keeps no delivery records here, so it cannot say why (no store).');
    const explanation = await explainItem(
      { platform: invocation.platform, channelId: invocation.channelId, item: raw },
      {
        ...deps.why,
        client: deps.client,
        clock: deps.clock,
        links: deps.directoryLinks,
        ...(spendLookupAllowance === undefined ? {} : { allowance: spendLookupAllowance }),
      },
    );
    const subscriptions = await deps.subscriptions.forChannel(invocation.platform, invocation.channelId);
    return whyReply(explanation, new Map(subscriptions.map((s) => [s.id, s.feed])));
  },
};
