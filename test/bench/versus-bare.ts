import type { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { type LatencyVersus, latencyVersus, type Violation } from './support.js';

/** Where a Slack latency row sends: the bot, and a bare Bolt app that acks at once, on the same fake Slack. */
export interface BotVersusBare {
  slack: FakeSlackApi;
  secret: string;
  botUrl: string;
  bareUrl: string;
  /** The Slack user sending: a workspace admin on the fake. */
  userId: string;
  /** Rounds sent first and not measured (connection set-up, JIT, Bolt's first auth.test). */
  warmup: number;
  violations: Violation[];
}

/**
 * One round per input: the same request to the bot and to the bare app, one at a time, and who
 * goes first alternates so neither always runs on a freshly warmed path and drift and noise from
 * other processes fall on both alike. `send` makes a request and returns how long it took (ms);
 * `measured` is false in the first `warmup` rounds, whose times are dropped.
 */
export async function alternateBotAndBare<T>(
  options: Pick<BotVersusBare, 'botUrl' | 'bareUrl' | 'warmup'>,
  inputs: readonly T[],
  send: (url: string, input: T, measured: boolean) => Promise<number>,
): Promise<LatencyVersus> {
  const { botUrl, bareUrl } = options;
  const botTimes: number[] = [];
  const bareTimes: number[] = [];
  for (const [i, input] of inputs.entries()) {
    const measured = i >= options.warmup;
    for (const url of i % 2 === 0 ? [botUrl, bareUrl] : [bareUrl, botUrl]) {
      const elapsed = await send(url, input, measured);
      if (measured) (url === botUrl ? botTimes : bareTimes).push(elapsed);
    }
  }
  return latencyVersus(botTimes, bareTimes);
}
