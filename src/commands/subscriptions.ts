import type { ActionCommand } from './command-module.js';
import { scheduleClock } from './describe-schedule.js';
import { describePause, describeSubscription } from './describe-subscription.js';
import { infoMessage, infoReply } from './replies.js';

/**
 * `subscriptions`: this channel's subscriptions, with ids, why any is paused, and each schedule in
 * the zone it is read in with its next digest.
 */
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
    const lines = await Promise.all(
      mine.map(async (s) => {
        const paused = s.paused ? ` — PAUSED: ${describePause(s.paused, deps.clock.now())}` : '';
        const clock = await scheduleClock(deps, s);
        return `${s.id}: ${describeSubscription(s, deps.defaultRemindMinutes, clock)}${paused}`;
      }),
    );
    return infoReply(
      `This channel has ${mine.length === 1 ? '1 subscription' : `${mine.length} subscriptions`}.`,
      [infoMessage('Subscriptions in this channel', lines.join('\n'))],
    );
  },
};
