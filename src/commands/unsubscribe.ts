import { z } from 'zod';
import { FEED_NAMES, isFeedName } from '../feeds/feed-names.js';
import type { ActionCommand } from './command-module.js';
import { describeSubscription } from './describe-subscription.js';
import { errorReply, infoMessage, infoReply } from './replies.js';

/** `unsubscribe <id|feed>`: removes this channel's subscription(s). */
export const unsubscribe: ActionCommand = {
  spec: {
    name: 'unsubscribe',
    kind: 'manage',
    description: "Stop one of this channel's subscriptions (by id) or every one of a feed",
    usage: 'unsubscribe <id|feed>',
    examples: ['unsubscribe s1a2b3c', 'unsubscribe comments'],
    options: [
      {
        name: 'target',
        description: 'Subscription id (see subscriptions) or feed name',
        type: 'string',
        required: true,
        positional: true,
        maxLength: 32,
        autocomplete: true,
        schema: z.string().regex(/^[a-z0-9-]+$/i, { error: 'a subscription id like s1a2b3c or a feed name' }),
      },
    ],
  },
  async run({ invocation, args, spec, deps }) {
    const target = String(args['target'] ?? '');
    const removed = await deps.subscriptions.remove(invocation.platform, invocation.channelId, target);
    if (removed.length === 0) {
      return errorReply(
        'command_usage',
        `This channel has no subscription ${isFeedName(target) ? `to ${target}` : `with id ${target}`}. See "subscriptions" for the list.`,
        spec.usage,
      );
    }
    const lines = removed.map((s) => `${s.id}: ${describeSubscription(s, deps.defaultRemindMinutes)}`);
    return infoReply(
      `Removed ${removed.length === 1 ? 'a subscription' : `${removed.length} subscriptions`} from this channel.`,
      [infoMessage('Removed', lines.join('\n'))],
    );
  },
  complete: (option) => (option === 'target' ? FEED_NAMES : []),
};
