import { postEvent } from './events-api.js';
import { signedHeaders } from './signing.js';
import { newTriggerId } from './trigger-id.js';

/** `app_home_opened` as Slack sends it when `userId` opens the app's Home tab (or `messages`). */
export function postAppHomeOpened(
  botUrl: string,
  signingSecret: string,
  teamId: string,
  userId: string,
  tab: 'home' | 'messages' = 'home',
): Promise<Response> {
  return postEvent(botUrl, signingSecret, teamId, {
    type: 'app_home_opened',
    user: userId,
    channel: `D${userId}`,
    tab,
  });
}

export interface HomeButtonPress {
  teamId: string;
  userId: string;
  /** The button as the published view carries it. */
  button: { action_id: string; value: string; text?: { type: string; text: string } };
  /** When the request is signed, in seconds; default now (a stale one tests the replay window). */
  timestamp?: number;
  /** Sign with this secret instead (a forgery). */
  signWith?: string;
}

/**
 * A `block_actions` interaction from a button on the app's Home tab, as Slack POSTs it: form
 * encoded `payload=<json>`, signed over the raw body. A home view has no channel and no
 * response_url, so the only answer a listener can give is another views.publish.
 */
export function postHomeButton(
  botUrl: string,
  signingSecret: string,
  press: HomeButtonPress,
): Promise<Response> {
  const payload = {
    type: 'block_actions',
    user: { id: press.userId, username: 'someone', name: 'someone', team_id: press.teamId },
    api_app_id: 'A0FAKE',
    token: 'deprecated-verification-token',
    container: { type: 'view', view_id: `V${press.teamId}${press.userId}` },
    trigger_id: newTriggerId(),
    team: { id: press.teamId, domain: 'fake' },
    is_enterprise_install: false,
    view: { id: `V${press.teamId}${press.userId}`, type: 'home', team_id: press.teamId, blocks: [] },
    actions: [
      {
        type: 'button',
        block_id: 'b1',
        action_ts: `${Date.now() / 1000}`,
        text: press.button.text ?? { type: 'plain_text', text: 'button' },
        action_id: press.button.action_id,
        value: press.button.value,
      },
    ],
  };
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const timestamp = press.timestamp ?? Math.floor(Date.now() / 1000);
  return fetch(`${botUrl}/slack/events`, {
    method: 'POST',
    body,
    headers: signedHeaders(press.signWith ?? signingSecret, body, timestamp),
  });
}

/** Every button of a published view, in order, with the text of the section just above it. */
export function homeButtons(
  view: { blocks: Record<string, unknown>[] } | undefined,
): { action_id: string; value: string; text: { type: string; text: string }; about: string }[] {
  const found: { action_id: string; value: string; text: { type: string; text: string }; about: string }[] =
    [];
  let about = '';
  for (const block of view?.blocks ?? []) {
    if (block['type'] === 'section')
      about = String((block['text'] as { text?: string } | undefined)?.text ?? '');
    if (block['type'] !== 'actions') continue;
    for (const element of block['elements'] as Record<string, unknown>[]) {
      if (element['type'] === 'button')
        found.push({
          ...(element as { action_id: string; value: string; text: { type: string; text: string } }),
          about,
        });
    }
  }
  return found;
}

/** A view as plain text, one line per block (sections, fields, headers, context). */
export function homeText(view: { blocks: Record<string, unknown>[] } | undefined): string {
  const lines: string[] = [];
  for (const block of view?.blocks ?? []) {
    const text = (block['text'] as { text?: string } | undefined)?.text;
    if (text !== undefined) lines.push(text);
    for (const field of (block['fields'] as { text: string }[] | undefined) ?? []) lines.push(field.text);
    for (const element of (block['elements'] as Record<string, unknown>[] | undefined) ?? []) {
      if (block['type'] === 'context') lines.push(String(element['text'] ?? ''));
    }
  }
  return lines.join('\n');
}
