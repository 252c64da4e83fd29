import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric the bot exports, on one registry per app instance (so tests can run several
 * apps in one process without clashing). Library-like parts emit events; the composition
 * root turns them into these.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    upstreamRequests: new Counter({
      name: 'directory_bot_upstream_requests_total',
      help: 'Requests to the Content Directory Service, by route and status.',
      labelNames: ['route', 'status'] as const,
      registers: [registry],
    }),
    upstreamLatency: new Histogram({
      name: 'directory_bot_upstream_request_seconds',
      help: 'Latency of requests to the Content Directory Service.',
      labelNames: ['route'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    recordsSkipped: new Counter({
      name: 'directory_bot_records_skipped_total',
      help: 'Upstream records that failed validation and were skipped.',
      labelNames: ['resource'] as const,
      registers: [registry],
    }),
    quotaRemaining: new Gauge({
      name: 'directory_bot_quota_remaining',
      help: 'Directory quota left in the current window, by quota class.',
      labelNames: ['class'] as const,
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'directory_bot_rate_limited_total',
      help: '429 answers received, by service (directory, slack, discord).',
      labelNames: ['service'] as const,
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'directory_bot_deliveries_total',
      help: 'Delivery attempts by platform and outcome (delivered, rejected, failed).',
      labelNames: ['platform', 'outcome'] as const,
      registers: [registry],
    }),
    outboxDepth: new Gauge({
      name: 'directory_bot_outbox_depth',
      help: 'Messages waiting in the durable outbox.',
      registers: [registry],
    }),
    feedPolls: new Counter({
      name: 'directory_bot_feed_polls_total',
      help: 'Feed polls by feed and result (ok, error).',
      labelNames: ['feed', 'result'] as const,
      registers: [registry],
    }),
    feedItems: new Counter({
      name: 'directory_bot_feed_items_total',
      help: 'New items found by each feed.',
      labelNames: ['feed'] as const,
      registers: [registry],
    }),
    commands: new Counter({
      name: 'directory_bot_commands_total',
      help: '/directory commands handled, by platform, command and result.',
      labelNames: ['platform', 'command', 'result'] as const,
      registers: [registry],
    }),
    linkPreviews: new Counter({
      name: 'directory_bot_link_previews_total',
      help: 'Directory links pasted in conversations (Slack unfurls), by platform, result (found, not_found, not_an_item, other_site, rate_limited, failed) and whether the lookup cache answered.',
      labelNames: ['platform', 'result', 'cached'] as const,
      registers: [registry],
    }),
    reminders: new Counter({
      name: 'directory_bot_reminders_total',
      help: 'Personal live-event reminders: queued (on time), late (queued after the bot was down), retimed, and refused_dm (the person takes no DMs from the bot).',
      labelNames: ['platform', 'event'] as const,
      registers: [registry],
    }),
    schedule: new Counter({
      name: 'directory_bot_schedule_total',
      help: 'Scheduled delivery (digests, quiet hours, volume caps), by event and kind: held and released count items; digest and digest_late count digests posted (late: after the bot was down at its time); summary counts quiet-hours and cap summaries; forgotten counts items of removed subscriptions.',
      labelNames: ['event', 'kind'] as const,
      registers: [registry],
    }),
    backfills: new Counter({
      name: 'directory_bot_backfill_items_total',
      help: 'Backfill on subscribe (--backfill N): queued counts the items posted; deferred counts backfills retried later (the directory or the lookup reserve was not available).',
      labelNames: ['platform', 'event'] as const,
      registers: [registry],
    }),
    workspacesRemoved: new Counter({
      name: 'directory_bot_workspaces_removed_total',
      help: 'Workspaces (Slack) and servers (Discord) that uninstalled or removed the bot, whose data was deleted, by platform and reason.',
      labelNames: ['platform', 'reason'] as const,
      registers: [registry],
    }),
    homePublishes: new Counter({
      name: 'directory_bot_home_publishes_total',
      help: 'Home tabs published (Slack App Home: views.publish answered ok), by platform.',
      labelNames: ['platform'] as const,
      registers: [registry],
    }),
    homeActions: new Counter({
      name: 'directory_bot_home_actions_total',
      help: 'Home tab buttons pressed, by platform, action (pause, resume, remove) and result (done, refused).',
      labelNames: ['platform', 'action', 'result'] as const,
      registers: [registry],
    }),
    buttons: new Counter({
      name: 'directory_bot_buttons_total',
      help: 'Message buttons pressed, by platform, verb (comments, follow, remind, mute; expired: an id this build cannot read) and result (ok, failed).',
      labelNames: ['platform', 'verb', 'result'] as const,
      registers: [registry],
    }),
    forms: new Counter({
      name: 'directory_bot_forms_total',
      help: 'Command forms (Slack modals), by platform, stage (opened, submitted), result (ok, failed) and deferred (answered after the form closed).',
      labelNames: ['platform', 'stage', 'result', 'deferred'] as const,
      registers: [registry],
    }),
    replays: new Counter({
      name: 'directory_bot_replays_total',
      help: 'Copies of an already handled slash command, button click or form submission, ignored, by platform and kind (command, button, form).',
      labelNames: ['platform', 'kind'] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
