import type { WebhookKind } from '../ports/index.js';

/** What a URL is: its kind, or why it cannot be used as given (`WEBHOOK_<NAME>_URL: …`). */
export type WebhookRecognition = { kind: WebhookKind } | { problem: string };

/**
 * The kind of webhook `url` is, among `kinds`: the first that recognises it; a URL none
 * recognises is the kind that needs a signing secret (the generic JSON kind), when one was given.
 * `hasSecret` beside a chat platform's URL is a mistake worth saying.
 */
export function recognizeWebhook(
  kinds: readonly WebhookKind[],
  url: string,
  hasSecret: boolean,
): WebhookRecognition {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { problem: 'expected an absolute https URL' };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return { problem: 'expected an absolute https URL' };
  }
  if (parsed.username !== '' || parsed.password !== '') {
    return { problem: 'a webhook URL carries no user name or password' };
  }
  const kind = kinds.find((k) => k.recognizes(parsed));
  if (kind !== undefined) {
    const refused = kind.refuses?.(parsed);
    if (refused !== undefined) return { problem: refused };
    if (hasSecret && !kind.needsSecret) {
      return { problem: `this is a ${kind.title} URL, which takes no signing secret: unset the secret` };
    }
    return { kind };
  }
  const generic = kinds.find((k) => k.needsSecret);
  if (hasSecret && generic !== undefined) return { kind: generic };
  const titles = kinds.filter((k) => !k.needsSecret).map((k) => k.title);
  return {
    problem: `not a ${titles.join(', ')} URL; for a generic JSON webhook, also set its signing secret`,
  };
}
