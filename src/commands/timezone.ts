import type { CommandInvocation } from '../ports/index.js';
import { checkTimeZone, formatLocal } from '../schedule/index.js';
import type { ResolvedZone } from '../subscriptions/index.js';
import type { ActionCommand } from './command-module.js';
import { errorReply, infoReply } from './replies.js';
import type { CommandDependencies } from './types.js';

/** Why the channel's schedules are read in the zone they are, in words. */
function sourceText(resolved: ResolvedZone, platform: string): string {
  switch (resolved.source) {
    case 'channel':
      return 'set for this channel with "timezone"';
    case 'workspace':
      return platform === 'slack'
        ? "the workspace's: the time zone Slack has for the person who installed the app"
        : "the workspace's";
    default:
      return platform === 'discord'
        ? 'the default: Discord tells bots no server time zone'
        : 'the default: no zone is set and the platform gives none';
  }
}

async function describeChannelZone(
  deps: CommandDependencies,
  invocation: CommandInvocation,
  zones: NonNullable<CommandDependencies['zones']>,
): Promise<string> {
  const resolved = await zones.resolve({
    platform: invocation.platform,
    channelId: invocation.channelId,
    ...(invocation.workspaceId === undefined ? {} : { workspaceId: invocation.workspaceId }),
  });
  const own = (await deps.subscriptions.forChannel(invocation.platform, invocation.channelId)).filter(
    (s) => s.schedule?.timeZone !== undefined,
  );
  const exceptions =
    own.length === 0
      ? ''
      : ` Except ${own.map((s) => `${s.id} (--tz ${s.schedule?.timeZone ?? ''})`).join(', ')}, which name their own.`;
  const now = formatLocal(deps.clock.now(), resolved.zone, 'day-time');
  return `This channel's time zone is ${resolved.zone} (${sourceText(resolved, invocation.platform)}); it is ${now} there now. Digests, quiet hours and caps of its subscriptions follow it.${exceptions}`;
}

/** `timezone [Zone|reset]`: shows, sets or forgets the zone this channel's schedules are read in. */
export const timezone: ActionCommand = {
  spec: {
    name: 'timezone',
    kind: 'manage',
    description: "Show or set this channel's time zone (digests, quiet hours, caps)",
    usage: 'timezone [<IANA zone like Europe/Berlin>|reset]',
    examples: ['timezone', 'timezone Europe/Berlin', 'timezone reset'],
    options: [
      {
        name: 'zone',
        description: 'An IANA time zone like Europe/Berlin, or reset to go back to the default',
        type: 'string',
        required: false,
        positional: true,
        maxLength: 64,
      },
    ],
  },
  async run({ invocation, args, spec, deps }) {
    const zones = deps.zones;
    if (zones === undefined)
      return errorReply('unavailable', 'Channel time zones are not kept here: schedules are read in UTC.');
    const { platform, channelId } = invocation;
    const wanted = typeof args['zone'] === 'string' ? args['zone'].trim() : undefined;
    if (wanted === undefined) return infoReply(await describeChannelZone(deps, invocation, zones));
    if (wanted.toLowerCase() === 'reset') {
      const removed = await zones.channelZones.reset(platform, channelId);
      const lead = removed
        ? `Forgot this channel's time zone (${removed.zone}).`
        : 'This channel had no time zone set.';
      return infoReply(`${lead} ${await describeChannelZone(deps, invocation, zones)}`);
    }
    const checked = checkTimeZone(wanted);
    if (!checked.ok) return errorReply('command_usage', `<zone>: ${checked.problem}`, spec.usage, 'zone');
    const before = await zones.channelZones.set({
      platform,
      channelId,
      ...(invocation.workspaceId === undefined ? {} : { workspaceId: invocation.workspaceId }),
      zone: checked.zone,
      setBy: invocation.actor.userId,
    });
    const lead =
      before?.zone === checked.zone
        ? `This channel's time zone was already ${checked.zone}.`
        : `Set this channel's time zone to ${checked.zone}${before ? ` (was ${before.zone})` : ''}.`;
    return infoReply(`${lead} ${await describeChannelZone(deps, invocation, zones)}`);
  },
};
