import type { HomeAction, HomeSubscription, HomeView } from '../../src/ports/index.js';
import { SLACK_LIMITS } from './block-limits.js';
import { escapeWithin } from './escape.js';
import type { SlackBlock } from './render-message.js';

/**
 * The home buttons' action ids, versioned: a view published by an older release keeps its ids,
 * so a change of meaning gets a new version rather than a silently different action.
 */
export const HOME_ACTION_IDS: Readonly<Record<HomeAction, string>> = {
  pause: 'home:v1:pause',
  resume: 'home:v1:resume',
  remove: 'home:v1:remove',
};

/** Block Kit's limit for a Home tab (CONTRACTS.md §1(e): "100 blocks in modals or Home tabs"). */
export const HOME_MAX_BLOCKS = 100;

/** A Slack channel id we may wrap in `<#…>` (a link to the channel, never a ping). */
const CHANNEL_ID = /^[CGD][A-Z0-9]{2,}$/;

/** The `value` of a home button: which subscription of which channel, ids only, never state. */
export function homeButtonValue(channelId: string, subscriptionId: string): string {
  return `${channelId}:${subscriptionId}`;
}

/** Reads a home button's value back; undefined for anything this release did not write. */
export function parseHomeButtonValue(
  value: string,
): { channelId: string; subscriptionId: string } | undefined {
  const match = /^([A-Z0-9]{2,30}):([a-z0-9-]{1,32})$/i.exec(value);
  return match ? { channelId: match[1] ?? '', subscriptionId: match[2] ?? '' } : undefined;
}

const mrkdwn = (text: string): SlackBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text: text.slice(0, SLACK_LIMITS.sectionText), verbatim: true },
});
const context = (text: string): SlackBlock => ({
  type: 'context',
  elements: [{ type: 'mrkdwn', text: text.slice(0, SLACK_LIMITS.contextText), verbatim: true }],
});
const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });

function channelLabel(channelId: string): string {
  return CHANNEL_ID.test(channelId) ? `<#${channelId}>` : escapeWithin(channelId, 100);
}

function subscriptionText(s: HomeSubscription): string {
  const state = s.paused === undefined ? 'Active' : `*Paused:* ${escapeWithin(s.paused, 1000)}`;
  const last = s.lastDelivery === undefined ? '' : ` · last delivery ${escapeWithin(s.lastDelivery, 100)}`;
  return `\`${escapeWithin(s.id, 40)}\` ${escapeWithin(s.summary, 1500)}\n${state}${last}`;
}

function subscriptionBlocks(s: HomeSubscription): SlackBlock[] {
  const value = homeButtonValue(s.channelId, s.id);
  const toggle =
    s.paused === undefined
      ? { type: 'button', text: plain('Pause'), action_id: HOME_ACTION_IDS.pause, value }
      : { type: 'button', text: plain('Resume'), action_id: HOME_ACTION_IDS.resume, value, style: 'primary' };
  const remove = {
    type: 'button',
    text: plain('Remove'),
    action_id: HOME_ACTION_IDS.remove,
    value,
    style: 'danger',
    confirm: {
      title: plain('Remove this subscription?'),
      text: plain(`${s.id} stops for good; subscribe again to bring it back.`.slice(0, 300)),
      confirm: plain('Remove'),
      deny: plain('Keep it'),
    },
  };
  return [mrkdwn(subscriptionText(s)), { type: 'actions', elements: [toggle, remove] }];
}

function statusBlocks(view: HomeView): SlackBlock[] {
  const blocks: SlackBlock[] = [
    { type: 'divider' },
    { type: 'header', text: plain('Bot status') },
    mrkdwn(escapeWithin(view.status.lead, SLACK_LIMITS.sectionText)),
  ];
  for (let i = 0; i < view.status.lines.length; i += SLACK_LIMITS.sectionFields) {
    const fields = view.status.lines.slice(i, i + SLACK_LIMITS.sectionFields).map((line) => ({
      type: 'mrkdwn',
      text: `*${escapeWithin(line.name, 100)}*\n${escapeWithin(line.value, SLACK_LIMITS.fieldText - 110)}`,
      verbatim: true,
    }));
    blocks.push({ type: 'section', fields });
  }
  const paused = view.status.paused.map(
    (s) => `${channelLabel(s.channelId)} \`${escapeWithin(s.id, 40)}\`: ${escapeWithin(s.paused ?? '', 300)}`,
  );
  if (view.status.pausedElsewhere > 0) paused.push(`${view.status.pausedElsewhere} paused subscription(s)`);
  if (paused.length > 0) {
    // One block whatever the count: the lines are cut to fit the section, with how many were left out.
    let text = '*Paused subscriptions*';
    let shown = 0;
    for (const line of paused) {
      if (text.length + line.length + 60 > SLACK_LIMITS.sectionText) break;
      text += `\n${line}`;
      shown += 1;
    }
    if (shown < paused.length) text += `\n…and ${paused.length - shown} more`;
    blocks.push(mrkdwn(text));
  }
  return blocks;
}

/**
 * The Home tab for one viewer as a Block Kit `home` view, always within 100 blocks: the answer to
 * their last button press, who may change what, each channel they manage with its subscriptions
 * and buttons, and the bot's status. Channels and subscriptions past the limit are summarised in
 * one line (`/directory subscriptions` in a channel lists all of its own).
 */
export function renderHomeView(view: HomeView): { type: 'home'; blocks: SlackBlock[] } {
  const head: SlackBlock[] = [{ type: 'header', text: plain('Directory Bot') }];
  if (view.notice !== undefined) {
    const mark = view.notice.refused ? ':no_entry:' : ':white_check_mark:';
    head.push(mrkdwn(`${mark} ${escapeWithin(view.notice.text, SLACK_LIMITS.sectionText - 20)}`));
  }
  head.push(context(escapeWithin(view.permission, SLACK_LIMITS.contextText)));
  const tail = statusBlocks(view);
  const body: SlackBlock[] = [];
  if (view.canManage && view.channels.length === 0) {
    body.push(
      mrkdwn('No channel here has subscriptions yet. Try `/directory subscribe posts` in a channel.'),
    );
  }
  // One block is kept for the summary of what did not fit.
  const room = HOME_MAX_BLOCKS - head.length - tail.length - 1;
  let hiddenSubscriptions = 0;
  const hiddenChannels = new Set<string>();
  for (const channel of view.channels) {
    for (const [i, s] of channel.subscriptions.entries()) {
      const needed = i === 0 ? 3 : 2;
      if (hiddenSubscriptions > 0 || body.length + needed > room) {
        hiddenSubscriptions += 1;
        hiddenChannels.add(channel.channelId);
        continue;
      }
      if (i === 0) body.push(mrkdwn(`*${channelLabel(channel.channelId)}*`));
      body.push(...subscriptionBlocks(s));
    }
  }
  if (hiddenSubscriptions > 0) {
    body.push(
      context(
        `…and ${hiddenSubscriptions} more subscription(s) in ${hiddenChannels.size} channel(s), not shown: a Home tab holds 100 blocks. \`/directory subscriptions\` in a channel lists its own.`,
      ),
    );
  }
  return { type: 'home', blocks: [...head, ...body, ...tail] };
}
