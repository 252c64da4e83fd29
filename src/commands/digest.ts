import { z } from 'zod';
import { formatLocal } from '../schedule/index.js';
import type { ActionCommand } from './command-module.js';
import { scheduleClock } from './describe-schedule.js';
import { noSuchSubscription } from './pause.js';
import { errorReply, infoReply } from './replies.js';
import { subscriptionId } from './shared-options.js';
import type { LatestDigest } from './types.js';

/** Most parts a digest has: 100 held items at 20 a part. */
const MAX_PART = 10;

const WHAT: Readonly<Record<LatestDigest['kind'], string>> = {
  digest: 'digest',
  quiet: 'quiet-hours summary',
  cap: 'summary of what its cap held',
};

/**
 * `digest <id> [part]`: the latest digest (or quiet-hours or cap summary) of one of this
 * channel's subscriptions that was too long for one message, one numbered part per answer (each
 * fits one message on every platform); one that fit was shown whole in the channel. A digest is one message in the channel (issue 29); where its later parts could not
 * go in that message's thread (the console, a thread the platform refused, threads off), the
 * message counts them and names this command, so every item stays within reach.
 */
export const digest: ActionCommand = {
  spec: {
    name: 'digest',
    kind: 'local',
    description: "The latest digest of one of this channel's subscriptions, in full (one part at a time)",
    usage: 'digest <id> [part]',
    examples: ['digest s1a2b3c', 'digest s1a2b3c 2'],
    options: [
      subscriptionId('Subscription id whose latest digest to show (see subscriptions)'),
      {
        name: 'part',
        description: 'Which part of it (default 1)',
        type: 'integer',
        required: false,
        positional: true,
        minValue: 1,
        maxValue: MAX_PART,
        schema: z
          .number()
          .int()
          .min(1, { error: `must be a whole number from 1 to ${MAX_PART}` })
          .max(MAX_PART, { error: `must be a whole number from 1 to ${MAX_PART}` }),
      },
    ],
  },
  async run({ invocation, args, spec, deps }) {
    const id = String(args['id'] ?? '');
    const subscription = (
      await deps.subscriptions.forChannel(invocation.platform, invocation.channelId)
    ).find((s) => s.id === id);
    if (!subscription) return noSuchSubscription(id, spec.usage);
    const latest = await deps.digests?.latest(id);
    if (!latest || latest.parts.length === 0) {
      const why = subscription.schedule
        ? 'has posted no digest or summary too long for one message: each was shown whole in the channel'
        : 'has no digest, quiet hours or cap: its items are posted one by one';
      return infoReply(`${id} ${why}.`);
    }
    const what = `The latest ${WHAT[latest.kind]} of ${id} too long for one message`;
    const count = latest.parts.length;
    const part = typeof args['part'] === 'number' ? args['part'] : 1;
    if (part > count) return errorReply('command_usage', `${what} has ${count} parts.`, spec.usage, 'part');
    const zone = (await scheduleClock(deps, subscription))?.zone ?? 'UTC';
    const due = `${formatLocal(latest.before, zone, 'day-time')} ${zone}`;
    const next = part < count ? ` Next: digest ${id} ${part + 1}.` : '';
    const message = latest.parts[part - 1]!;
    return infoReply(`${what}, due ${due}, part ${part} of ${count}.${next}`, [message]);
  },
};
