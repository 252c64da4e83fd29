import { performance } from 'node:perf_hooks';
import type { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { signedHeaders } from '../fakes/slack/signing.js';
import { latencyVersus, type Violation } from './support.js';

export interface ModalSubmitResult {
  submissions: number;
  bot: { p50Ms: number; p99Ms: number };
  bare: { p50Ms: number; p99Ms: number };
  /** bot ÷ bare at the same percentile. */
  p50Ratio: number;
  p99Ratio: number;
  /** Submissions the bot acked by closing the modal (the subscription made within the ack budget). */
  closedInAck: number;
}

export interface ModalSubmitOptions {
  slack: FakeSlackApi;
  secret: string;
  botUrl: string;
  bareUrl: string;
  /** The Slack user submitting: a workspace admin on the fake, so every submission subscribes. */
  userId: string;
  requests: number;
  warmup: number;
  violations: Violation[];
}

/**
 * Subscribe-form submissions (`view_submission`, signed) to the bot and to a bare Bolt app that
 * acks at once, alternating one at a time like the command row. The modal is one the bot opened
 * through `/directory subscribe`; each submission asks for a new keyword, so each one is a new
 * subscription: the users.info check (cached after the first), the parser, a store write and the
 * preview lookup upstream, all before the ack that closes the modal.
 */
export async function benchModalSubmits(options: ModalSubmitOptions): Promise<ModalSubmitResult> {
  const { slack, secret, botUrl, userId } = options;
  const body = new URLSearchParams({
    team_id: 'T1',
    channel_id: 'C1000000',
    user_id: userId,
    user_name: 'bench',
    command: '/directory',
    text: 'subscribe',
    response_url: slack.responseUrl(),
    trigger_id: slack.modals.trigger(userId),
  }).toString();
  await fetch(botUrl, {
    method: 'POST',
    body,
    headers: signedHeaders(secret, body, Math.floor(Date.now() / 1000)),
  });
  const opened = slack.modals.opened.at(-1);
  if (opened === undefined) {
    options.violations.push({ benchmark: 'lookups', problem: '/directory subscribe opened no modal' });
    return {
      submissions: 0,
      bot: { p50Ms: 0, p99Ms: 0 },
      bare: { p50Ms: 0, p99Ms: 0 },
      p50Ratio: 0,
      p99Ratio: 0,
      closedInAck: 0,
    };
  }
  const botTimes: number[] = [];
  const bareTimes: number[] = [];
  let closedInAck = 0;
  const needed = options.requests + options.warmup;
  for (let i = 0; i < needed; i += 1) {
    const values = { feed: 'posts', keyword: `bench${i}` };
    const order = i % 2 === 0 ? [botUrl, options.bareUrl] : [options.bareUrl, botUrl];
    for (const url of order) {
      const started = performance.now();
      const response = await slack.modals.submit(url, secret, opened, values);
      const answer = await response.text();
      const elapsed = performance.now() - started;
      if (response.status !== 200)
        options.violations.push({
          benchmark: 'lookups',
          problem: `${url} answered ${response.status} to a form submission`,
        });
      if (i < options.warmup) continue;
      if (url === options.bareUrl) {
        bareTimes.push(elapsed);
        continue;
      }
      botTimes.push(elapsed);
      // An empty ack closes the modal; anything else is an inline error.
      if (answer === '') closedInAck += 1;
      else
        options.violations.push({
          benchmark: 'lookups',
          problem: `a form submission was answered ${answer.slice(0, 120)}`,
        });
    }
  }
  return { submissions: options.requests, ...latencyVersus(botTimes, bareTimes), closedInAck };
}
