import { createManualClock } from '../../src/emulator/index.js';
import { RANKING_COST } from '../../src/engine/todays-ranking.js';
import { startInstance, startWorld } from '../support/engine-harness.js';
import { percentile, round, seededRandom, type Violation } from './support.js';
import type { Row } from './table.js';

export interface EditsOptions {
  /** Simulated run length (manual clock: the run itself takes seconds). */
  durationMs: number;
  /** EDIT_MIN_INTERVAL_S for the run, shortened so a short run spans many intervals. */
  minIntervalMs: number;
  /** How often the posts feed polls, as its cadence would. */
  pollMs: number;
  posts: number;
  /** Comments posted alongside (on the comments feed); a third of them are removed upstream. */
  comments: number;
  seed: number;
}

export interface EditsResult {
  posted: number;
  edits: number;
  intervals: number;
  /** Edits per posted message per EDIT_MIN_INTERVAL_S over the run (goal ≤ 1). */
  editsPerMessagePerInterval: number;
  /** The most edits one message got inside any one interval (must be ≤ 1). */
  maxEditsInOneInterval: number;
  /**
   * Directory quota spent with edits on ÷ the same run with edits off, minus 1, in the class where
   * it is largest (goal ≤ 0.1): V1 requests (the comments feed's removal check) or V2 complexity
   * (the posts' rank of the day).
   */
  extraQuotaRatio: number;
  requests: { withEdits: number; withoutEdits: number };
  /** Quota spent per class, with edits on and off. */
  quota: { withEdits: Spend; withoutEdits: Spend };
  /** How many times the rank of the day was asked for (with edits on). */
  rankingQueries: number;
  /** Posted comments removed upstream, and how many of their messages were edited to say so. */
  removedComments: { removed: number; marked: number; markedTwice: number };
  /** Upstream vote change → message showing it (or a later count), ÷ the interval. */
  staleness: { p50: number; p95: number; samples: number; unshown: number };
  violations: Violation[];
}

interface Spend {
  v1: number;
  complexity: number;
}

interface Run {
  posted: number;
  spend: Spend;
  rankingQueries: number;
  /** Per comment message removed upstream: how many edits marked it removed. */
  removalMarks: number[];
  requests: number;
  /** Per message id: [time, votes shown] of each edit. */
  edits: Map<string, { at: number; votes: number }[]>;
  /** Per post id: [time, votes upstream] of each change; and its message id. */
  changes: { postId: number; at: number; votes: number }[];
  messageOf: Map<number, string>;
}

/**
 * Vote churn on posted posts, and posted comments of which some are removed upstream, polled at
 * the feeds' cadence, with edits on and then off on the same seed: how often each message is
 * edited, what the refresh (and the comments feed's removal check) costs upstream beyond the
 * feeds' own polls, and how long a shown vote count lags the directory.
 */
export async function benchEdits(options: EditsOptions): Promise<EditsResult> {
  const on = await run(options, true);
  const off = await run(options, false);
  const intervals = options.durationMs / options.minIntervalMs;
  let edits = 0;
  let maxInOne = 0;
  for (const list of on.edits.values()) {
    edits += list.length;
    for (const [i, edit] of list.entries()) {
      const inWindow = list.slice(i).filter((e) => e.at < edit.at + options.minIntervalMs).length;
      maxInOne = Math.max(maxInOne, inWindow);
    }
  }
  const lags: number[] = [];
  let unshown = 0;
  for (const change of on.changes) {
    const id = on.messageOf.get(change.postId);
    const shown = (id === undefined ? [] : (on.edits.get(id) ?? [])).find(
      (e) => e.at >= change.at && e.votes >= change.votes,
    );
    if (shown === undefined) unshown += 1;
    else lags.push((shown.at - change.at) / options.minIntervalMs);
  }
  const violations: Violation[] = [];
  if (maxInOne > 1)
    violations.push({ benchmark: 'edits', problem: `${maxInOne} edits of one message in one interval` });
  const removedComments = {
    removed: on.removalMarks.length,
    marked: on.removalMarks.filter((n) => n > 0).length,
    markedTwice: on.removalMarks.filter((n) => n > 1).length,
  };
  if (removedComments.marked < removedComments.removed || removedComments.markedTwice > 0)
    violations.push({
      benchmark: 'edits',
      problem: `${removedComments.marked} of ${removedComments.removed} removed comments marked, ${removedComments.markedTwice} twice`,
    });
  return {
    posted: on.posted,
    edits,
    intervals: round(intervals, 1),
    editsPerMessagePerInterval: round(edits / Math.max(1, on.posted) / intervals),
    maxEditsInOneInterval: maxInOne,
    extraQuotaRatio: round(
      Math.max(
        on.spend.v1 / Math.max(1, off.spend.v1) - 1,
        on.spend.complexity / Math.max(1, off.spend.complexity) - 1,
      ),
    ),
    requests: { withEdits: on.requests, withoutEdits: off.requests },
    quota: { withEdits: on.spend, withoutEdits: off.spend },
    rankingQueries: on.rankingQueries,
    removedComments,
    staleness: {
      p50: round(percentile(lags, 50)),
      p95: round(percentile(lags, 95)),
      samples: lags.length,
      unshown,
    },
    violations,
  };
}

async function run(options: EditsOptions, edits: boolean): Promise<Run> {
  const clock = createManualClock(Date.parse('2026-11-23T12:00:00Z'));
  const world = await startWorld({ clock, seed: options.seed });
  const random = seededRandom(options.seed);
  const bot = await startInstance({
    emulator: world.emulator,
    storeUrl: world.sqliteUrl(),
    namespace: `edits-${edits}`,
    clock,
    settings: edits ? { edits: { maxAgeMs: 24 * 3_600_000, minIntervalMs: options.minIntervalMs } } : {},
  });
  const { admin } = world.emulator;
  try {
    await bot.engine.subscriptions.add({
      platform: 'console',
      channelId: 'bench',
      feed: 'posts',
      filters: {},
      createdBy: 'b',
    });
    await bot.engine.subscriptions.add({
      platform: 'console',
      channelId: 'bench-talk',
      feed: 'comments',
      filters: {},
      createdBy: 'b',
    });
    await bot.engine.pollAllOnce();
    const ids = Array.from(
      { length: options.posts },
      (_, i) => admin.addPost({ name: `Bench ${i}` }).id as number,
    );
    const comments = Array.from(
      { length: options.comments },
      (_, i) => admin.addComment({ body: `Bench remark ${i}` }).id as number,
    );
    const doomed = comments.filter((_, i) => i % 3 === 0);
    bot.engine.dispatcher.start();
    const settle = async () => {
      bot.engine.dispatcher.wake();
      while (bot.engine.outbox.heads().some((e) => e.notBefore <= clock.now())) {
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    };
    // Posted before any churn, so each message's first vote count is the baseline.
    clock.advance(1000);
    await bot.engine.pollAllOnce();
    await settle();
    const before = admin.stats();
    const changes: Run['changes'] = [];
    const votes = new Map<number, number>();
    for (let t = 0; t < options.durationMs; t += options.pollMs) {
      clock.advance(options.pollMs);
      // A third into the run (the comments feed's removal check has listed them by then).
      if (t === Math.floor(options.durationMs / 3 / options.pollMs) * options.pollMs) {
        for (const id of doomed) admin.removeComment(id);
      }
      // Each poll period, about a third of the posts gain a few votes.
      for (const id of ids) {
        if (random() < 0.33) {
          const added = 1 + Math.floor(random() * 3);
          admin.addVotes(id, added);
          votes.set(id, (votes.get(id) ?? 0) + added);
          changes.push({ postId: id, at: clock.now(), votes: votes.get(id)! });
        }
      }
      // The run's clock is simulated: the quota window would reset only in real time for the
      // client, so keep the emulator's quota open (requests are counted, not limited, here).
      admin.resetQuotas();
      await bot.engine.pollAllOnce();
      await settle();
    }
    const after = admin.stats();
    const requests = after.requests.total - before.requests.total;
    const spend = {
      v1: after.quotaUsed.v1 - before.quotaUsed.v1,
      complexity: after.quotaUsed.complexity - before.quotaUsed.complexity,
    };
    const rankingQueries = bot.clientEvents.filter(
      (e) => e.type === 'request' && e.cost === RANKING_COST && e.attempt === 1,
    ).length;
    const messageOf = new Map<number, string>();
    const base = new Map<string, number>();
    const talk = bot.adapter.deliveries.flatMap((d, i) =>
      d.channelId === 'bench-talk' ? [`m${i + 1}`] : [],
    );
    // Comments are posted in id order: the doomed ones' messages are at their indexes.
    const removalMarks = comments.flatMap((_, i) => {
      const messageId = talk[i];
      if (!doomed.includes(comments[i]!) || messageId === undefined) return [];
      return [
        bot.adapter.edits.filter(
          (e) => e.messageId === messageId && e.message.title.startsWith('Removed from the directory: '),
        ).length,
      ];
    });
    bot.adapter.deliveries.forEach((d, i) => {
      if (d.channelId !== 'bench') return;
      const id = ids[Number(d.message.title.replace('Bench ', ''))];
      if (id !== undefined) messageOf.set(id, `m${i + 1}`);
      base.set(`m${i + 1}`, Number(d.message.fields?.find((f) => f.name === 'Votes')?.value ?? 0));
    });
    const byMessage = new Map<string, { at: number; votes: number }[]>();
    for (const edit of bot.adapter.edits) {
      if (!base.has(edit.messageId)) continue;
      const shown = Number(edit.message.fields?.find((f) => f.name === 'Votes')?.value ?? 0);
      const list = byMessage.get(edit.messageId) ?? [];
      list.push({ at: edit.at, votes: shown - (base.get(edit.messageId) ?? 0) });
      byMessage.set(edit.messageId, list);
    }
    return {
      posted: base.size,
      spend,
      rankingQueries,
      removalMarks,
      requests,
      edits: byMessage,
      changes,
      messageOf,
    };
  } finally {
    await bot.close();
    await world.close();
  }
}

/** The table's rows: edits per message per interval, the refresh's extra quota, shown-vote staleness. */
export function editsRows(e: EditsResult): Row[] {
  const interval = `EDIT_MIN_INTERVAL_S shortened for the run; ${e.posted} posts over ${e.intervals} intervals`;
  return [
    {
      figure: 'edits: per posted message per EDIT_MIN_INTERVAL_S',
      value: e.editsPerMessagePerInterval,
      goal: '≤ 1',
      detail: `${e.edits} edits; at most ${e.maxEditsInOneInterval} of one message in one interval; ${interval}`,
    },
    {
      figure: 'edits: extra directory quota ÷ feeds’ own',
      value: e.extraQuotaRatio,
      goal: '≤ 0.1',
      detail: `the larger of V1 ${e.quota.withEdits.v1} vs ${e.quota.withoutEdits.v1} requests (the comments feed makes one removal check every tenth poll) and V2 ${e.quota.withEdits.complexity} vs ${e.quota.withoutEdits.complexity} complexity points (${e.rankingQueries} asks for the rank of the day, ${RANKING_COST} points each; the rest of the refresh reads the feeds' own polls); ${e.requests.withEdits} requests with edits vs ${e.requests.withoutEdits} without`,
    },
    {
      figure: 'edits: removed comments marked ÷ removed',
      value: round(e.removedComments.marked / Math.max(1, e.removedComments.removed)),
      goal: '1',
      detail: `${e.removedComments.marked} of ${e.removedComments.removed} posted comments removed upstream edited to say so; ${e.removedComments.markedTwice} marked twice`,
    },
    {
      figure: 'edits: shown vote staleness p95 ÷ EDIT_MIN_INTERVAL_S',
      value: e.staleness.p95,
      goal: '≤ 1.2',
      detail: `p50 ${e.staleness.p50}; ${e.staleness.samples} vote changes, ${e.staleness.unshown} still pending at the end`,
    },
  ];
}
