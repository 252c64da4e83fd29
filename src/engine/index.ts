/** The poll loop: the poller lease, the poll scheduler, one feed's poll end to end, and keeping posted messages current. */
export { composeFeedRecord, createItemComposer } from './compose-item.js';
export { createEngine, type Engine, type EngineEvent, type EngineSettings } from './engine.js';
export { type FeedHealth, PollScheduler } from './poll-scheduler.js';
export { RECENT_LIMIT, recentItems } from './recent-items.js';
