import type { DirectoryClientEvent, DirectoryConnection, QuotaLedger } from '../directory/index.js';
import type { EngineEvent } from '../engine/index.js';
import { isBotError } from '../errors.js';
import type { SchedulingEvent } from '../held-items/index.js';
import type { Logger } from '../ports/index.js';
import type { Metrics } from './metrics.js';

/**
 * Library-like parts (the directory client, the engine) report events; this is where they
 * become log lines and metrics, so those parts stay free of logging policy.
 */
export function directoryEventSink(logger: Logger, metrics: Metrics, ledger: () => QuotaLedger | undefined) {
  return (event: DirectoryClientEvent): void => {
    switch (event.type) {
      case 'request': {
        metrics.upstreamRequests.inc({ route: event.route, status: String(event.status ?? 'none') });
        metrics.upstreamLatency.observe({ route: event.route }, event.ms / 1000);
        const snapshot = ledger()?.snapshot();
        if (snapshot)
          for (const [quotaClass, q] of Object.entries(snapshot))
            metrics.quotaRemaining.set({ class: quotaClass }, q.remaining);
        if (event.errorCode && !CONNECTION_CODES.has(event.errorCode)) {
          logger.warn(
            { route: event.route, status: event.status, code: event.errorCode, attempt: event.attempt },
            'directory request failed',
          );
        } else if (event.errorCode || event.aborted) {
          // A refused token or an outage is said once, by the connection event; every request
          // it fails, and every request given up on shutdown, is detail.
          logger.debug(
            {
              route: event.route,
              status: event.status,
              code: event.errorCode ?? 'aborted',
              attempt: event.attempt,
            },
            'directory request failed',
          );
        } else {
          logger.debug(
            { route: event.route, status: event.status, ms: event.ms, cost: event.cost },
            'directory request',
          );
        }
        return;
      }
      case 'record-skipped':
        metrics.recordsSkipped.inc({ resource: event.resource });
        logger.warn(
          { resource: event.resource, id: event.id, path: event.path, issue: event.issue },
          'skipped a malformed directory record',
        );
        return;
      case 'rate-limited':
        metrics.rateLimited.inc({ service: 'directory' });
        logger.warn(
          { quotaClass: event.quotaClass, route: event.route, retryAfterMs: event.retryAfterMs },
          'directory rate limit reached; pausing that quota class until it resets',
        );
        return;
      case 'quota-wait':
        logger.info({ quotaClass: event.quotaClass, waitMs: event.waitMs }, 'waiting for directory quota');
        return;
      case 'retry':
        logger.info(
          { route: event.route, attempt: event.attempt, delayMs: event.delayMs, code: event.errorCode },
          'retrying directory request',
        );
        return;
      case 'not-modified':
        logger.debug({ route: event.route }, 'directory answered 304 Not Modified');
        return;
      case 'connection':
        for (const state of CONNECTION_STATES)
          metrics.directoryConnection.set({ state }, state === event.to.state ? 1 : 0);
        logConnection(logger, event.from, event.to);
        return;
    }
  };
}

const CONNECTION_STATES: readonly DirectoryConnection['state'][] = [
  'unknown',
  'ok',
  'refused',
  'unreachable',
];

/** Failures that are the connection's state rather than one request's: said once per change. */
const CONNECTION_CODES: ReadonlySet<string> = new Set([
  'upstream_unauthorized',
  'upstream_network',
  'upstream_timeout',
  'upstream_unavailable',
]);

/** Whether a failed poll failed because of the connection (said once, not per poll). */
function isConnectionFailure(error: unknown): boolean {
  return isBotError(error) && CONNECTION_CODES.has(error.code);
}

/**
 * One line per change of the directory connection: an error (no stack trace: the detail says
 * what the directory answered) when it refuses the token or stops answering, one line when it
 * is back. The bot keeps running either way: commands that need no directory still answer.
 */
function logConnection(logger: Logger, from: DirectoryConnection, to: DirectoryConnection): void {
  if (to.state === 'refused') {
    logger.error(
      { directoryConnection: to.state, detail: to.detail },
      `the directory refused DIRECTORY_TOKEN (${to.detail}); nothing is polled or looked up until it accepts a token: set DIRECTORY_TOKEN to one it issued for this application and restart`,
    );
  } else if (to.state === 'unreachable') {
    logger.error(
      { directoryConnection: to.state, detail: to.detail },
      `the directory is unreachable (${to.detail}); polls and lookups are retried and resume when it answers`,
    );
  } else if (to.state === 'ok' && from.state !== 'unknown') {
    logger.info(
      { directoryConnection: to.state, after: from.state },
      from.state === 'refused' ? 'the directory accepts the token again' : 'the directory answers again',
    );
  }
}

export function engineEventSink(logger: Logger, metrics: Metrics, outboxSize: () => number) {
  return (event: EngineEvent): void => {
    switch (event.source) {
      case 'store':
        if (event.type === 'swept') logger.debug({ removed: event.removed }, 'swept expired store keys');
        else if (event.type === 'directory-changed')
          logger.warn(
            { directory: event.directoryId, previous: event.previous, dropped: event.droppedMessages },
            `another directory was read since this one: its feeds start from "now", and ${event.droppedMessages} message(s) still queued from when it was left are dropped`,
          );
        else
          logger.warn({ err: event.error }, 'could not sweep expired store keys; will try again in an hour');
        return;
      case 'polling':
        if (event.type === 'polled') {
          metrics.feedPolls.inc({ feed: event.summary.feed, result: 'ok' });
          metrics.feedItems.inc({ feed: event.summary.feed }, event.summary.found);
          if (event.summary.found > 0) logger.info({ ...event.summary, ms: event.ms }, 'polled feed');
          else logger.debug({ ...event.summary, ms: event.ms }, 'polled feed');
        } else if (event.type === 'poll-failed') {
          metrics.feedPolls.inc({ feed: event.feed, result: 'error' });
          if (isConnectionFailure(event.error)) {
            logger.debug(
              { feed: event.feed, code: (event.error as { code: string }).code, retryInMs: event.retryInMs },
              'feed poll failed (the directory connection); will retry',
            );
          } else {
            logger.warn(
              { feed: event.feed, err: event.error, retryInMs: event.retryInMs },
              'feed poll failed; will retry',
            );
          }
        } else {
          logger.info(
            { feed: event.feed, intervalS: Math.round(event.intervalMs / 1000) },
            'feed cadence set from the quota',
          );
        }
        return;
      case 'dispatcher': {
        metrics.outboxDepth.set(outboxSize());
        const { entry } = event;
        const where = {
          platform: entry.destination.platform,
          channel: entry.destination.channelId,
          item: entry.itemKey,
        };
        if (event.type === 'delivered') {
          metrics.deliveries.inc({ platform: entry.destination.platform, outcome: 'delivered' });
          logger.debug({ ...where, ms: event.ms }, 'delivered');
        } else if (event.type === 'edited') {
          metrics.deliveries.inc({ platform: entry.destination.platform, outcome: 'edited' });
          logger.debug({ ...where, ms: event.ms }, 'edited in place');
        } else if (event.type === 'rejected') {
          metrics.deliveries.inc({ platform: entry.destination.platform, outcome: 'rejected' });
          logger.warn(
            { ...where, code: event.code, dropped: event.dropped },
            `channel refused permanently (${event.reason}); its subscriptions are paused`,
          );
        } else if (event.type === 'failed') {
          metrics.deliveries.inc({ platform: entry.destination.platform, outcome: 'failed' });
          if (event.code.includes('rate')) metrics.rateLimited.inc({ service: entry.destination.platform });
          logger.info(
            { ...where, code: event.code, retryInMs: event.retryInMs },
            'delivery failed; will retry',
          );
        } else if (event.type === 'dropped' && entry.destination.direct === true) {
          metrics.deliveries.inc({ platform: entry.destination.platform, outcome: 'dropped' });
          metrics.reminders.inc({ platform: entry.destination.platform, event: 'refused_dm' });
          logger.warn(
            { platform: entry.destination.platform, item: entry.itemKey, code: event.code },
            `a reminder DM was refused (${event.reason}); dropped, not retried`,
          );
        } else if (event.type === 'dropped') {
          metrics.deliveries.inc({ platform: entry.destination.platform, outcome: 'dropped' });
          logger.warn(
            { ...where, code: event.code },
            `the platform refused this message (${event.reason}); dropped it, the channel carries on`,
          );
        } else if (event.type === 'abandoned') {
          metrics.deliveries.inc({ platform: entry.destination.platform, outcome: 'abandoned' });
          logger.error({ ...where, reason: event.reason }, 'gave up on a delivery');
        } else if (event.type === 'ledger-checked') {
          // A takeover's check is what keeps a SIGKILLed worker's last messages from posting twice.
          if (event.alreadyPosted)
            logger.info(
              { ...where, takeover: event.takeover },
              'already posted (the delivered ledger says so): settled without sending again',
            );
          else if (event.takeover)
            logger.info(
              where,
              'outcome unknown after a takeover and not in the delivered ledger: sending it',
            );
          else logger.debug(where, 'not in the delivered ledger: sending it again');
        } else if (event.type === 'log-failed') {
          logger.warn({ ...where, err: event.error }, 'could not record this attempt in the delivery log');
        } else {
          logger.error({ ...where, err: event.error }, 'delivery error');
        }
        return;
      }
      case 'reminders':
        if (event.type === 'queued') {
          metrics.reminders.inc({ platform: event.platform, event: event.late ? 'late' : 'queued' });
          logger.info({ reminder: event.reminderId, late: event.late }, 'reminder DM queued');
        } else if (event.type === 'retimed') {
          metrics.reminders.inc({ platform: event.platform, event: 'retimed' });
          logger.info(
            { reminder: event.reminderId, from: event.from, to: event.to },
            'live event moved; reminder re-timed',
          );
        } else {
          logger.warn({ err: event.error }, 'could not check reminders; will try again');
        }
        return;
      case 'backfill':
        if (event.type === 'queued') {
          metrics.backfills.inc({ platform: event.platform, event: 'queued' }, event.queued);
          logger.info(
            {
              subscription: event.subscriptionId,
              asked: event.asked,
              queued: event.queued,
              fetched: event.fetched,
            },
            'backfill queued',
          );
        } else if (event.type === 'deferred') {
          metrics.backfills.inc({ platform: event.platform, event: 'deferred' });
          logger.warn(
            { subscription: event.subscriptionId, err: event.error },
            'could not backfill yet; will try again',
          );
        } else {
          logger.warn({ err: event.error }, 'could not check for backfills; will try again');
        }
        return;
      case 'schedule':
        scheduleEvent(logger, metrics, event);
        return;
      case 'workers':
        if (event.type === 'handed-over')
          logger.debug(
            { entries: event.entries, destinations: event.destinations },
            'handed to delivery workers',
          );
        else logger.warn({ err: event.error }, 'could not hand deliveries to the workers; will retry');
        return;
      case 'leader':
        if (event.type === 'acquired') {
          logger.info({ owner: event.owner }, 'this instance now polls and delivers');
        } else if (event.type === 'lost') {
          logger.warn({ owner: event.owner, reason: event.reason }, 'lost the poller lease; standing by');
        } else if (event.type === 'transition-failed') {
          logger.error(
            { owner: event.owner, err: event.error },
            event.to === 'lead'
              ? 'could not start polling; released the lease and will retry'
              : 'error while stopping polling',
          );
        } else if (event.type === 'lease-error') {
          logger.warn(
            { owner: event.owner, err: event.error },
            'could not check the poller lease; will retry',
          );
        } else {
          logger.info({ owner: event.owner }, 'released the poller lease');
        }
        return;
    }
  };
}

/** Holding and releasing by schedules: every item counted, each digest and summary logged. */
function scheduleEvent(logger: Logger, metrics: Metrics, event: SchedulingEvent): void {
  if (event.type === 'held') {
    metrics.schedule.inc({ event: 'held', kind: event.reason }, event.count);
    logger.debug(
      { subscription: event.subscriptionId, reason: event.reason, count: event.count },
      'held by schedule',
    );
  } else if (event.type === 'released') {
    metrics.schedule.inc({ event: 'released', kind: event.kind }, event.items);
    if (event.messages === 0) return;
    const digest = event.kind === 'digest';
    metrics.schedule.inc({
      event: digest ? (event.late ? 'digest_late' : 'digest') : 'summary',
      kind: event.kind,
    });
    logger.info(
      {
        platform: event.platform,
        subscription: event.subscriptionId,
        kind: event.kind,
        items: event.items,
        messages: event.messages,
        dueAt: new Date(event.dueAt).toISOString(),
        late: event.late,
      },
      digest
        ? event.late
          ? 'late digest queued (the bot was down at its time)'
          : 'digest queued'
        : `${event.kind} hold released`,
    );
  } else if (event.type === 'forgotten') {
    metrics.schedule.inc({ event: 'forgotten', kind: 'any' }, event.items);
    logger.info(
      { subscription: event.subscriptionId, items: event.items },
      'subscription gone: its held items are deleted',
    );
  } else {
    logger.warn({ err: event.error }, 'could not run schedules; will try again');
  }
}
