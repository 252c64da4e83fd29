import { signedHeaders } from './signing.js';
import { newTriggerId } from './trigger-id.js';

/** A `/directory <text>` slash command as Slack POSTs it, signed with `signingSecret` now. */
export function postSlashCommand(
  baseUrl: string,
  signingSecret: string,
  command: {
    text: string;
    responseUrl: string;
    userId?: string;
    userName?: string;
    teamId?: string;
    /** One the fake Web API will honour for views.open (`slack.modals.trigger`); default a fresh one. */
    triggerId?: string;
  },
): Promise<Response> {
  const body = new URLSearchParams({
    team_id: command.teamId ?? 'T1',
    channel_id: 'C1',
    user_id: command.userId ?? 'U1',
    user_name: command.userName ?? 'alice',
    command: '/directory',
    text: command.text,
    api_app_id: 'A1',
    response_url: command.responseUrl,
    trigger_id: command.triggerId ?? newTriggerId(),
  }).toString();
  return fetch(`${baseUrl}/slack/events`, {
    method: 'POST',
    body,
    headers: signedHeaders(signingSecret, body, Math.floor(Date.now() / 1000)),
  });
}
