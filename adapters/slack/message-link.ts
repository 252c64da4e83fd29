import type { Destination, MessageReference } from '../../src/ports/index.js';

/** A Slack message timestamp, `1700000000.000100`. */
const TS = /^\d+\.\d+$/;

/**
 * The permalink Slack gives a message (`chat.getPermalink`'s shape, built without the call):
 * `https://<workspace>.slack.com/archives/<channel>/p<ts without its dot>`, with `thread_ts` and
 * `cid` for a reply so it opens in its thread. Only where the workspace's address is known (the
 * single-token bot learns it from auth.test, a multi-workspace install from the requests each
 * workspace sends: `createWorkspaceAddresses`); undefined otherwise, never a guessed address.
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

/** Most workspaces whose address is remembered: the least recently heard from go first. */
const REMEMBERED_WORKSPACES = 10_000;

/**
 * Each workspace's address (`https://<domain>.slack.com/`) as the requests it sends name it: every
 * slash command carries `team_id` and `team_domain`, every button press and form `team.id` and
 * `team.domain`. How a multi-workspace install, whose tokens' auth.test nobody calls, links to
 * its messages: once someone there used the bot since it started (asking `/directory why` is
 * such a use).
 */
export function createWorkspaceAddresses() {
  const byTeam = new Map<string, string>();
  return {
    /** Remembers the address a request names, when it names one. */
    learn(body: unknown): void {
      const team = teamDomainOf(body);
      if (team === undefined || !/^[a-z0-9][a-z0-9-]{0,62}$/i.test(team.domain)) return;
      byTeam.delete(team.teamId);
      byTeam.set(team.teamId, `https://${team.domain.toLowerCase()}.slack.com/`);
      if (byTeam.size > REMEMBERED_WORKSPACES) {
        const oldest = byTeam.keys().next().value;
        if (oldest !== undefined) byTeam.delete(oldest);
      }
    },
    /** The address of a workspace, if one of its requests named it. */
    of(teamId: string | undefined): string | undefined {
      return teamId === undefined ? undefined : byTeam.get(teamId);
    },
  };
}

export type WorkspaceAddresses = ReturnType<typeof createWorkspaceAddresses>;

/** The team and subdomain a Slack request body names (slash commands; interactions' `team`). */
function teamDomainOf(body: unknown): { teamId: string; domain: string } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const fields = body as Record<string, unknown>;
  if (typeof fields['team_id'] === 'string' && typeof fields['team_domain'] === 'string')
    return { teamId: fields['team_id'], domain: fields['team_domain'] };
  const team = fields['team'];
  if (typeof team !== 'object' || team === null) return undefined;
  const { id, domain } = team as Record<string, unknown>;
  return typeof id === 'string' && typeof domain === 'string' ? { teamId: id, domain } : undefined;
}
