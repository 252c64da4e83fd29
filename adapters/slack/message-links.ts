import type { ChatAdapter, Destination } from '../../src/ports/index.js';

/**
 * Links to the bot's messages, as Slack's "Copy link" gives them:
 * `https://<workspace>.slack.com/archives/<channel>/p<ts without the dot>`, and for a reply
 * `?thread_ts=<parent ts>&cid=<channel>`. Built without a call to Slack (chat.getPermalink would
 * cost one per message): the workspace's address is learnt from auth.test at start-up (the one
 * workspace of a single token) and from the `team_domain` Slack sends with every slash command
 * and button press (each workspace of a multi-workspace install, once someone there used the
 * bot since it started).
 */
export function createSlackMessageLinks() {
  const byTeam = new Map<string, string>();
  /** The single token's workspace: every destination without a team is in it. */
  let sole: string | undefined;

  return {
    /** The workspace address auth.test answered for the configured token. */
    learnSole(teamId: string | undefined, url: string): void {
      const base = withSlash(url);
      if (base === undefined) return;
      sole = base;
      if (teamId) byTeam.set(teamId, base);
    },
    /** A workspace's subdomain, as a request from it names it (`team_domain`, `team.domain`). */
    learnDomain(teamId: string, domain: string): void {
      if (/^[a-z0-9][a-z0-9-]*$/i.test(domain))
        byTeam.set(teamId, `https://${domain.toLowerCase()}.slack.com/`);
    },
    link: ((destination: Destination, reference) => {
      const base =
        (destination.workspaceId === undefined ? undefined : byTeam.get(destination.workspaceId)) ?? sole;
      if (base === undefined || destination.direct === true) return undefined;
      const channel = reference.channelId ?? destination.channelId;
      const path = `${base}archives/${channel}/p${reference.messageId.replace('.', '')}`;
      const parent = reference.threadId;
      return parent !== undefined && parent !== reference.messageId
        ? `${path}?thread_ts=${parent}&cid=${channel}`
        : path;
    }) satisfies NonNullable<ChatAdapter['messageLink']>,
  };
}

export type SlackMessageLinks = ReturnType<typeof createSlackMessageLinks>;

/** An https URL ending in `/`, or undefined for anything else. */
function withSlash(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:') return undefined;
    return parsed.href.endsWith('/') ? parsed.href : `${parsed.href}/`;
  } catch {
    return undefined;
  }
}

/** The team and subdomain a Slack request body names (slash commands and interactions). */
export function teamDomainOf(body: unknown): { teamId: string; domain: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b['team_id'] === 'string' && typeof b['team_domain'] === 'string')
    return { teamId: b['team_id'], domain: b['team_domain'] };
  const team = b['team'];
  if (typeof team === 'object' && team !== null) {
    const t = team as Record<string, unknown>;
    if (typeof t['id'] === 'string' && typeof t['domain'] === 'string')
      return { teamId: t['id'], domain: t['domain'] };
  }
  return undefined;
}
