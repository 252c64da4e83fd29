import type { App } from '@slack/bolt';
import type { CommandHandler, LinkPreview, Logger } from '../../src/ports/index.js';
import { slackErrorCode } from './error-mapping.js';
import type { SlackAdapterEvent } from './events.js';
import { renderMessageBlocks } from './render-message.js';

/**
 * The most links of one message previewed. Each may cost a directory request from the lookup
 * reserve, so a message pasting a list of twenty links costs at most five lookups.
 */
export const MAX_UNFURLS_PER_MESSAGE = 5;

/** What `link_shared` carries that the bot reads (Events API; the shape of @slack/types' LinkSharedEvent). */
interface LinkShared {
  channel: string;
  user: string;
  message_ts: string;
  links: { domain: string; url: string }[];
  unfurl_id?: string;
  source?: string;
}

/**
 * Which message `chat.unfurl` attaches the previews to. A link typed in the message composer,
 * before it is sent, has no message yet: Slack then sends `source: composer` with an `unfurl_id`,
 * and the unfurl names those instead of `channel` + `ts`.
 */
function unfurlTarget(
  event: LinkShared,
): { channel: string; ts: string } | { unfurl_id: string; source: 'composer' } {
  if (event.source === 'composer' && event.unfurl_id !== undefined)
    return { unfurl_id: event.unfurl_id, source: 'composer' };
  return { channel: event.channel, ts: event.message_ts };
}

export interface LinkUnfurlOptions {
  commands: CommandHandler;
  logger: Logger;
  emit: (event: SlackAdapterEvent) => void;
}

/**
 * Slack's `link_shared` (a link on one of the manifest's `unfurl_domains` was pasted) → the core's
 * preview of each link → one `chat.unfurl` with a card per link the directory knows, rendered
 * exactly as a delivered message. A link that names nothing (another page, a removed post) is
 * left to Slack's own preview: no unfurl and nothing said to anyone; the core counts it. Bolt
 * verified the request's signature before this runs and has acknowledged the event already.
 */
export function bindLinkUnfurls(app: App, { commands, logger, emit }: LinkUnfurlOptions): void {
  const preview = commands.preview?.bind(commands);
  if (preview === undefined) return;
  app.event('link_shared', async ({ event, body, client }) => {
    const shared: LinkShared = event;
    const workspaceId = (body as { team_id?: string }).team_id;
    const urls = [...new Set(shared.links.map((link) => link.url))].slice(0, MAX_UNFURLS_PER_MESSAGE);
    const previewOf = (url: string): Promise<LinkPreview> =>
      preview({
        platform: 'slack',
        userId: shared.user,
        ...(workspaceId === undefined ? {} : { workspaceId }),
        url,
      });
    const previews = await Promise.all(urls.map(async (url) => ({ url, found: await previewOf(url) })));
    // Our blocks are built loose (SlackBlock, always with a `type`); the fake Slack checks them
    // against Block Kit's limits.
    const unfurls: Record<string, { blocks: { type: string }[] }> = {};
    for (const { url, found } of previews) {
      if (found.status === 'found')
        unfurls[url] = { blocks: renderMessageBlocks(found.message) as { type: string }[] };
      else logger.debug({ url, reason: found.reason }, 'link not unfurled');
    }
    const unfurled = Object.keys(unfurls).length;
    if (unfurled === 0) {
      emit({ type: 'unfurl', links: urls.length, unfurled: 0 });
      return;
    }
    try {
      await client.chat.unfurl({ ...unfurlTarget(shared), unfurls });
      emit({ type: 'unfurl', links: urls.length, unfurled });
    } catch (error) {
      // Nobody asked for the preview, so nobody is told it failed: Slack's own preview stays.
      const code = slackErrorCode(error);
      logger.warn({ err: error, code }, 'chat.unfurl failed');
      emit({ type: 'unfurl', links: urls.length, unfurled: 0, failed: code ?? 'unknown' });
    }
  });
}
