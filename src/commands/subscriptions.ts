import type { ActionCommand } from './command-module.js';
import { describePause, describeSubscription } from './describe-subscription.js';
import { infoMessage, infoReply } from './replies.js';

/** `subscriptions`: this channel's subscriptions, with ids and why any is paused. */
export const subscriptions: ActionCommand = {
  spec: {
    name: 'subscriptions',
    kind: 'local',
    description: "This channel's subscriptions",
    usage: 'subscriptions',
    examples: ['subscriptions'],
    options: [],
  },
  async run({ invocation, deps }) {
    const mine = await deps.subscriptions.forChannel(invocation.platform, invocation.channelId);
    if (mine.length === 0) {
      return infoReply('This channel has no subscriptions. Try "subscribe posts" or "help subscribe".');
    }
    const lines = mine.map((s) => {
      const paused = s.paused ? ` — PAUSED: ${describePause(s.paused, deps.clock.now())}` : '';
      return `${s.id}: ${describeSubscription(s, deps.defaultRemindMinutes)}${paused}`;
    });
    return infoReply(
      `This channel has ${mine.length === 1 ? '1 subscription' : `${mine.length} subscriptions`}.`,
      [infoMessage('Subscriptions in this channel', lines.join('\n'))],
    );
  },
};
