import { performance } from 'node:perf_hooks';
import { type Agent, request } from 'undici';
import { blockActionsBody } from '../fakes/slack/block-actions.js';
import { signedHeaders } from '../fakes/slack/signing.js';
import type { LatencyVersus } from './support.js';
import { alternateBotAndBare, type BotVersusBare } from './versus-bare.js';

/** How long a button's answer may take to reach the response_url before it counts as lost. */
const ANSWER_WAIT_MS = 10_000;

export interface ButtonClickResult extends LatencyVersus {
  clicks: number;
  /** Bot clicks whose answer reached the response_url. */
  answered: number;
}

export interface ButtonClickOptions extends BotVersusBare {
  agent: Agent;
  /** Post ids to press "Comments" on, one per click pair (warm-up first). */
  postIds: readonly number[];
}

/**
 * Message button clicks ("Comments" on a post: a signed `block_actions`, `dirbot:v1:comments:<id>`)
 * to the bot and to a bare Bolt app whose `dirbot:` listener acks at once, alternating one at a
 * time. The bot acks before running the command and answers through the response_url; each
 * answer is awaited (untimed) before the next pair so it never overlaps an ack being measured,
 * and one that never arrives is a violation. Distinct posts: every answer goes upstream.
 */
export async function benchButtonClicks(options: ButtonClickOptions): Promise<ButtonClickResult> {
  const { slack, botUrl } = options;
  let answered = 0;
  const click = async (url: string, postId: number, measured: boolean): Promise<number> => {
    const responseUrl = slack.responseUrl();
    const body = blockActionsBody({
      button: { action_id: `dirbot:v1:comments:${postId}`, text: { text: 'Comments' } },
      userId: options.userId,
      channelId: 'C1000000',
      teamId: 'T1',
      responseUrl,
    });
    const headers = signedHeaders(options.secret, body, Math.floor(Date.now() / 1000));
    const started = performance.now();
    const response = await request(url, { method: 'POST', body, headers, dispatcher: options.agent });
    const answer = await response.body.text();
    const elapsed = performance.now() - started;
    if (response.statusCode !== 200 || answer !== '') {
      options.violations.push({
        benchmark: 'lookups',
        problem: `${url} answered ${response.statusCode} "${answer.slice(0, 120)}" to a button click`,
      });
    }
    if (url === botUrl) {
      const arrived = await Promise.race([
        slack.waitForResponse((r) => responseUrl.endsWith(r.path)).then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), ANSWER_WAIT_MS)),
      ]);
      if (!arrived) {
        options.violations.push({
          benchmark: 'lookups',
          problem: `no answer to the click on post ${postId}`,
        });
      } else if (measured) answered += 1;
    }
    return elapsed;
  };
  const latency = await alternateBotAndBare(options, options.postIds, click);
  return { clicks: options.postIds.length - options.warmup, ...latency, answered };
}
