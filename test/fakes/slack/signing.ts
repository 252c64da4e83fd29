import { createHmac } from 'node:crypto';

/** Slack's v0 request signature over `v0:{timestamp}:{raw body}` (CONTRACTS.md §1(b)). */
export function slackSignature(signingSecret: string, timestamp: number, rawBody: string): string {
  return `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

/** Headers Slack sends with a signed request, for a body signed at `timestamp` (seconds). */
export function signedHeaders(
  signingSecret: string,
  rawBody: string,
  timestamp: number,
  contentType = 'application/x-www-form-urlencoded',
): Record<string, string> {
  return {
    'content-type': contentType,
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': slackSignature(signingSecret, timestamp, rawBody),
  };
}
