import { explainItem, ITEM_NOUNS, type ItemExplanation } from '../accounting/index.js';
import type { CommandReply } from '../ports/index.js';
import type { Subscription } from '../subscriptions/index.js';
import type { ActionCommand } from './command-module.js';
import { errorReply, infoMessage, infoReply } from './replies.js';

/**
 * `why <item>`: what became of an item in this channel, one line per subscription here —
 * delivered (when, link), queued, held (and when it goes), filtered out (which filter), a
 * duplicate, not polled yet, too old, failed (the platform's reason) or paused. It changes
 * nothing, so anyone in the channel may ask; it reads what the bot keeps and asks the directory
 * at most once, from the person's lookup allowance and the interactive reserve.
 */
export const why: ActionCommand = {
  spec: {
    name: 'why',
    kind: 'local',
    description: 'What became of an item in this channel: posted, queued, held, filtered out, or why not',
    usage: 'why <item link | post|comment|collection|live|notification <id>>',
    examples: [
      'why https://www.example-directory.test/posts/atlas-maps?comment=812',
      'why comment 812',
      'why post atlas-maps',
    ],
    options: [
      {
        name: 'item',
        description: 'A directory link to the item, or its kind (post, comment, collection, live) and id',
        type: 'string',
        required: true,
        positional: true,
        maxLength: 400,
      },
      {
        name: 'id',
        description: 'After a kind: the id (or a post, collection or live event slug)',
        type: 'string',
        required: false,
        positional: true,
        maxLength: 120,
      },
    ],
  },
  async run({ invocation, args, deps, spec, spendLookupAllowance }) {
    const accounting = deps.accounting;
    if (accounting === undefined) return errorReply('unavailable', 'Nothing is kept about deliveries here.');
    const item = [args['item'], args['id']].filter((part) => typeof part === 'string').join(' ');
    const explanation = await explainItem(
      { platform: invocation.platform, channelId: invocation.channelId, item },
      { ...accounting, ...(spendLookupAllowance === undefined ? {} : { allowLookup: spendLookupAllowance }) },
    );
    const subscriptions = await deps.subscriptions.forChannel(invocation.platform, invocation.channelId);
    return whyReply(explanation, subscriptions, spec.usage);
  },
};

/**
 * The answer as `/directory why` shows it: the item as a card titled with its name and linked to
 * it, one line per subscription (its id and feed, then the explanation's own sentence); a bad
 * argument or an unknown item as an error.
 */
export function whyReply(
  explanation: ItemExplanation,
  subscriptions: readonly Pick<Subscription, 'id' | 'feed'>[],
  usage: string,
): CommandReply {
  const { item, notice, noticeCode, lines } = explanation;
  if (noticeCode === 'not_an_item')
    return errorReply('command_usage', notice ?? 'That names no item.', usage);
  if (item === undefined || lines.length === 0) {
    const text = notice ?? 'Nothing to say about that item.';
    return noticeCode === 'not_found' ? errorReply('upstream_not_found', text) : infoReply(text);
  }
  const feedOf = new Map(subscriptions.map((s) => [s.id, s.feed]));
  const body = lines
    .map((line) => {
      const feed = feedOf.get(line.subscriptionId);
      return `${line.subscriptionId}${feed === undefined ? '' : ` (${feed})`}: ${line.text}`;
    })
    .join('\n');
  const card = {
    ...infoMessage(`Why: ${item.title}`, body),
    ...(item.url === undefined ? {} : { url: item.url }),
  };
  const lead = `What became of ${ITEM_NOUNS[item.feed]} ${item.id} in this channel, per subscription.`;
  return infoReply(notice === undefined ? lead : `${lead} ${notice}`, [card]);
}
