import { renderDiscordWebhookMessage } from '../../adapters/discord/webhook.js';
import { renderSlackWebhookMessage } from '../../adapters/slack/webhook.js';
import { renderMattermostMessage, renderTeamsMessage } from '../../adapters/webhooks/index.js';
import type { Message } from '../../src/ports/index.js';

/** The new post the README's "Going live" shows on each webhook kind. */
export const EXAMPLE_POST: Message = {
  kind: 'post',
  title: 'Nimbus Notes',
  url: 'https://directory.example.com/posts/nimbus-notes',
  text: 'Notes that sync before you finish typing.',
  fields: [
    { name: 'Votes', value: '128', inline: true },
    { name: 'Comments', value: '14', inline: true },
  ],
  footer: 'Directory · new post',
  timestamp: '2026-03-02T09:30:00Z',
  fallback: 'New post: Nimbus Notes — Notes that sync before you finish typing.',
};

/**
 * Each kind's request body for EXAMPLE_POST, as the README shows it (a ```json block each);
 * `test/docs/webhook-docs.test.ts` keeps them equal to what the renderers send.
 */
export const WEBHOOK_EXAMPLES: { kind: string; heading: string; body: unknown }[] = [
  { kind: 'teams', heading: 'Microsoft Teams (Workflows)', body: renderTeamsMessage(EXAMPLE_POST) },
  { kind: 'mattermost', heading: 'Mattermost', body: renderMattermostMessage(EXAMPLE_POST) },
  { kind: 'slack', heading: 'Slack', body: renderSlackWebhookMessage(EXAMPLE_POST) },
  { kind: 'discord', heading: 'Discord', body: renderDiscordWebhookMessage(EXAMPLE_POST) },
];

/** The README block of one example. */
export function exampleBlock(example: (typeof WEBHOOK_EXAMPLES)[number]): string {
  return `\`\`\`json\n${JSON.stringify(example.body, null, 2)}\n\`\`\``;
}
