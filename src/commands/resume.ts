import type { ActionCommand } from './command-module.js';
import { describeSubscription } from './describe-subscription.js';
import { noSuchSubscription } from './pause.js';
import { infoReply } from './replies.js';
import { subscriptionId } from './shared-options.js';

/** `resume <id>`: delivers one of this channel's paused subscriptions again. */
export const resume: ActionCommand = {
  spec: {
    name: 'resume',
    kind: 'manage',
    description: "Resume one of this channel's paused subscriptions (by id)",
    usage: 'resume <id>',
    examples: ['resume s1a2b3c'],
    options: [subscriptionId('Subscription id to resume (see subscriptions)')],
  },
  async run({ invocation, args, spec, deps }) {
    const id = String(args['id'] ?? '');
    const outcome = await deps.subscriptions.resume(invocation.platform, invocation.channelId, id);
    if (!outcome) return noSuchSubscription(id, spec.usage);
    const what = `${id}: ${describeSubscription(outcome.subscription, deps.defaultRemindMinutes)}`;
    if (!outcome.changed) return infoReply(`${what} is not paused.`);
    // Items discovered while it was paused were never routed to it: no flood on resume.
    return infoReply(`Resumed ${what}. New items are posted again from now on.`);
  },
};
