import type { ActionCommand } from './command-module.js';
import { describeSubscription } from './describe-subscription.js';
import { errorReply, infoReply } from './replies.js';
import { subscriptionId } from './shared-options.js';

/** `pause <id>`: stops one of this channel's subscriptions until someone resumes it. */
export const pause: ActionCommand = {
  spec: {
    name: 'pause',
    kind: 'manage',
    description: "Pause one of this channel's subscriptions (by id) until it is resumed",
    usage: 'pause <id>',
    examples: ['pause s1a2b3c'],
    options: [subscriptionId('Subscription id to pause (see subscriptions)')],
  },
  async run({ invocation, args, spec, deps }) {
    const id = String(args['id'] ?? '');
    const outcome = await deps.subscriptions.pause(
      invocation.platform,
      invocation.channelId,
      id,
      invocation.actor.userId,
    );
    if (!outcome) {
      // A Mute button names the subscription it was delivered for; a usage line would not help.
      return invocation.via === 'button' ? subscriptionGone() : noSuchSubscription(id, spec.usage);
    }
    const what = `${id}: ${describeSubscription(outcome.subscription, deps.defaultRemindMinutes)}`;
    if (!outcome.changed) {
      return infoReply(
        `${what} is already paused (${outcome.subscription.paused?.reason ?? 'unknown reason'}).`,
      );
    }
    return infoReply(`Paused ${what}. Nothing is posted for it until someone runs "resume ${id}".`);
  },
};

/** A button's answer for a subscription removed since its message was posted. */
export function subscriptionGone() {
  return errorReply('subscription_not_found', 'This subscription no longer exists.');
}

/** The answer for an id this channel does not have (pause, resume). */
export function noSuchSubscription(id: string, usage: string) {
  return errorReply(
    'command_usage',
    `This channel has no subscription with id ${id}. See "subscriptions" for the list.`,
    usage,
  );
}
