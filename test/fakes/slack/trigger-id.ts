import { randomBytes } from 'node:crypto';

let issued = 0;

/**
 * A fresh `trigger_id` as Slack puts in every slash command and interaction: never the same twice,
 * which is what tells the bot a re-sent copy from a new request.
 */
export function newTriggerId(): string {
  issued += 1;
  return `${issued}.${Date.now()}.${randomBytes(8).toString('hex')}`;
}
