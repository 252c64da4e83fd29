import { performance } from 'node:perf_hooks';
import { signedHeaders } from '../fakes/slack/signing.js';
import type { LatencyVersus } from './support.js';
import { alternateBotAndBare, type BotVersusBare } from './versus-bare.js';

export interface ModalSubmitResult extends LatencyVersus {
  submissions: number;
  /** Submissions the bot acked by closing the modal (the subscription made within the ack budget). */
  closedInAck: number;
}

export interface ModalSubmitOptions extends BotVersusBare {
  requests: number;
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
  let closedInAck = 0;
  const submit = async (url: string, values: Record<string, string>, measured: boolean): Promise<number> => {
    const started = performance.now();
    const response = await slack.modals.submit(url, secret, opened, values);
    const answer = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200)
      options.violations.push({
        benchmark: 'lookups',
        problem: `${url} answered ${response.status} to a form submission`,
      });
    if (url !== botUrl || !measured) return elapsed;
    // An empty ack closes the modal; anything else is an inline error.
    if (answer === '') closedInAck += 1;
    else
      options.violations.push({
        benchmark: 'lookups',
        problem: `a form submission was answered ${answer.slice(0, 120)}`,
      });
    return elapsed;
  };
  const forms = Array.from({ length: options.requests + options.warmup }, (_, i) => ({
    feed: 'posts',
    keyword: `bench${i}`,
  }));
  const latency = await alternateBotAndBare(options, forms, submit);
  return { submissions: options.requests, ...latency, closedInAck };
}
