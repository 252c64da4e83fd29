import Keyv from 'keyv';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSlackAdapter } from '../../../adapters/slack/index.js';
import { DeliveredLedger } from '../../../src/delivery/delivered-ledger.js';
import type { DispatchEvent } from '../../../src/delivery/dispatch/delivery-attempt.js';
import { Dispatcher } from '../../../src/delivery/dispatch/dispatcher.js';
import { Outbox, type OutboxEntry } from '../../../src/delivery/outbox.js';
import { createManualClock } from '../../../src/emulator/index.js';
import type { ChatAdapter, Destination } from '../../../src/ports/index.js';
import { destinationKey } from '../../../src/subscriptions/routing.js';
import { SubscriptionRepository } from '../../../src/subscriptions/subscription-repository.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { freeLeases } from '../../support/free-leases.js';
import { createMemoryStore } from '../../support/memory-store.js';
import { createOAuthSlackAdapter, createTestSealer, storeInstallations } from '../../support/slack-oauth.js';

/** More channels than two bursts of a workspace (20 each at 240 a minute), one message each. */
const CHANNELS = 45;
/** The default workspace pace: a burst of 20, then 4 a second, so 20 more after 5 seconds. */
const BURST = 20;
const REFILL_MS = 5_000;
const TOKENS: Record<string, string> = { T1: 'xoxb-team1', T2: 'xoxb-team2' };
const SINGLE_TOKEN = 'xoxb-single';

/**
 * The real dispatcher and the real Slack adapter against the fake Slack, on a clock the test
 * moves: at one instant the pacer lets through exactly what the limits allow, so counts per
 * workspace (by the token each post carried) show the pace without timing anything.
 */
describe('Slack pacing per workspace, through the dispatcher', () => {
  let slack: FakeSlackApi;
  let dispatcher: Dispatcher | undefined;

  afterEach(async () => {
    await dispatcher?.stop();
    dispatcher = undefined;
    await slack.close();
  });

  async function world(install: 'oauth' | 'single') {
    const clock = createManualClock();
    slack = await new FakeSlackApi({ now: () => clock.now() }).start();
    const adapter = install === 'oauth' ? await oauthAdapter() : singleAdapter();
    const keyv = new Keyv();
    const outbox = new Outbox({ keyv, directoryId: 'test' });
    const events: DispatchEvent[] = [];
    dispatcher = new Dispatcher({
      outbox,
      ledger: new DeliveredLedger({ keyv, ttlMs: 60_000, directoryId: 'test' }),
      subscriptions: new SubscriptionRepository({ keyv, leases: freeLeases, clock }),
      adapters: new Map([['slack', adapter]]),
      clock,
      onEvent: (event) => events.push(event),
    });
    return { clock, outbox, events, dispatcher };
  }

  async function oauthAdapter(): Promise<ChatAdapter> {
    const store = createMemoryStore();
    await storeInstallations(slack, store, TOKENS);
    return createOAuthSlackAdapter(slack.apiUrl, store, createTestSealer());
  }

  function singleAdapter(): ChatAdapter {
    slack.addToken(SINGLE_TOKEN, 'T1');
    return createSlackAdapter({
      botToken: SINGLE_TOKEN,
      signingSecret: 'secret',
      apiUrl: slack.apiUrl,
      logger: createCapturingLogger(),
    });
  }

  /** One message to each of `CHANNELS` channels of `workspaceId` (none: a single-workspace install). */
  function burstTo(workspaceId: string | undefined): OutboxEntry[] {
    return Array.from({ length: CHANNELS }, (_, i) => {
      const channelId = `C${workspaceId ?? 'SINGLE'}X${i}`;
      slack.addChannel(channelId);
      const destination: Destination = {
        platform: 'slack',
        channelId,
        ...(workspaceId === undefined ? {} : { workspaceId }),
      };
      return {
        destination,
        destinationKey: destinationKey('slack', channelId),
        itemKey: 'comments:new:burst',
        message: { kind: 'comment', title: 'A burst', fallback: 'A burst' },
        subscriptionIds: [`s-${channelId}`],
        enqueuedAt: 0,
        attempts: 0,
        notBefore: 0,
      };
    });
  }

  /** Posts Slack accepted, by the workspace whose token they carried. */
  function postedBy(): Record<string, number> {
    const teams = new Map(Object.entries(TOKENS).map(([team, token]) => [token, team]));
    teams.set(SINGLE_TOKEN, 'single');
    const counts: Record<string, number> = {};
    for (const call of slack.callsTo('chat.postMessage')) {
      if (call.status !== 200 || call.response['ok'] !== true) continue;
      const team = teams.get(call.token ?? '') ?? 'unknown';
      counts[team] = (counts[team] ?? 0) + 1;
    }
    return counts;
  }

  /**
   * Lets the dispatcher send everything the pacer allows at the clock's instant: until `answers`
   * sends were answered, then stops it, which waits for any still in flight. The clock does not
   * move meanwhile, so nothing beyond the limits can go.
   */
  async function sendWhatIsAllowed(
    w: { dispatcher: Dispatcher; events: DispatchEvent[] },
    answers: number,
  ): Promise<void> {
    const answered = () => w.events.filter((e) => e.type === 'delivered' || e.type === 'failed').length;
    w.dispatcher.start();
    await vi.waitFor(() => expect(answered()).toBeGreaterThanOrEqual(answers), { timeout: 10_000 });
    await w.dispatcher.stop();
  }

  it('gives every workspace its own 240 a minute: two workspaces post twice as much as one', async () => {
    const w = await world('oauth');
    await w.outbox.enqueue([...burstTo('T1'), ...burstTo('T2')]);

    await sendWhatIsAllowed(w, 2 * BURST);
    expect(postedBy()).toEqual({ T1: BURST, T2: BURST });

    w.clock.advance(REFILL_MS);
    await sendWhatIsAllowed(w, 4 * BURST);
    expect(postedBy()).toEqual({ T1: 2 * BURST, T2: 2 * BURST });
    expect(slack.callsTo('chat.postMessage').filter((c) => c.status === 429)).toEqual([]);
    expect(slack.violations).toEqual([]);
  });

  it('a 429 in one workspace does not slow the other', async () => {
    const w = await world('oauth');
    // Much longer than the test moves the clock: had it held T2, T2 would post nothing more.
    slack.failNext('chat.postMessage', 429, 1, 60, 'CT1X0');
    await w.outbox.enqueue([...burstTo('T1'), ...burstTo('T2')]);

    await sendWhatIsAllowed(w, 2 * BURST);
    expect(postedBy()).toEqual({ T1: BURST - 1, T2: BURST });
    expect(w.events).toContainEqual(expect.objectContaining({ type: 'failed', code: 'rate_limited' }));

    w.clock.advance(REFILL_MS);
    await sendWhatIsAllowed(w, 4 * BURST);
    expect(postedBy()).toEqual({ T1: 2 * BURST - 1, T2: 2 * BURST });
  });

  it('paces a single-workspace install (no workspace ids) as one workspace, as before', async () => {
    const w = await world('single');
    await w.outbox.enqueue(burstTo(undefined));

    await sendWhatIsAllowed(w, BURST);
    expect(postedBy()).toEqual({ single: BURST });

    w.clock.advance(REFILL_MS);
    await sendWhatIsAllowed(w, 2 * BURST);
    expect(postedBy()).toEqual({ single: 2 * BURST });
    expect(w.outbox.size()).toBe(CHANNELS - 2 * BURST);
  });
});
