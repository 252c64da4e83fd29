import type { Destination, MessageReference } from '../../src/ports/index.js';

/** A Slack message timestamp, `1700000000.000100`. */
const TS = /^\d+\.\d+$/;

/**
 * The permalink Slack gives a message (`chat.getPermalink`'s shape, built without the call):
 * `https://<workspace>.slack.com/archives/<channel>/p<ts without its dot>`, with `thread_ts` and
 * `cid` for a reply so it opens in its thread. Only where the workspace's address is known (the
 * single-token bot learns it from auth.test); undefined otherwise, never a guessed address.
 */
export function slackMessageLink(
  workspaceUrl: string | undefined,
  destination: Destination,
  reference: MessageReference,
): string | undefined {
  if (workspaceUrl === undefined || !TS.test(reference.messageId)) return undefined;
  let base: URL;
  try {
    base = new URL(workspaceUrl);
  } catch {
    return undefined;
  }
  if (base.protocol !== 'https:') return undefined;
  const channel = reference.channelId ?? destination.channelId;
  const link = new URL(
    `/archives/${encodeURIComponent(channel)}/p${reference.messageId.replace('.', '')}`,
    base,
  );
  const parent = reference.threadId;
  if (parent !== undefined && parent !== reference.messageId && TS.test(parent)) {
    link.searchParams.set('thread_ts', parent);
    link.searchParams.set('cid', channel);
  }
  return link.toString();
}
