import type { BotErrorCode } from '../errors.js';
import type { ConnectionChange } from './connection-state.js';
import type { Priority, QuotaClass } from './types.js';

/**
 * What the client reports to its owner. The client never logs: the composition root turns
 * these into log lines and metrics.
 */
export type DirectoryClientEvent =
  | {
      type: 'request';
      method: string;
      /** Path without query string, e.g. `/v1/comments` (low cardinality for metrics). */
      route: string;
      /** HTTP status, or undefined when no response arrived (network error, timeout). */
      status: number | undefined;
      ms: number;
      quotaClass: QuotaClass;
      /** Quota units reserved for the call (1 per request, or the estimated complexity). */
      cost: number;
      attempt: number;
      priority: Priority;
      /** Set when the attempt failed. */
      errorCode?: BotErrorCode;
      /** Set when the caller gave the request up (shutdown): not a failure of the directory. */
      aborted?: true;
    }
  | ({
      /** The directory became reachable, refused the token, or stopped answering: once per change. */
      type: 'connection';
    } & ConnectionChange)
  | {
      type: 'record-skipped';
      /** `comment`, `collection`, `live_event`, `notification`, `post`, `topic`, ... */
      resource: string;
      /** The record's id when it had a readable one. */
      id: string | undefined;
      /** Dotted path of the first failing field, e.g. `user.id` or `created_at`. */
      path: string;
      issue: string;
    }
  | {
      type: 'rate-limited';
      quotaClass: QuotaClass;
      route: string;
      retryAfterMs: number;
    }
  | {
      type: 'quota-wait';
      quotaClass: QuotaClass;
      waitMs: number;
      priority: Priority;
    }
  | {
      type: 'retry';
      method: string;
      route: string;
      attempt: number;
      delayMs: number;
      errorCode: BotErrorCode;
    }
  | {
      type: 'not-modified';
      route: string;
    };

export type DirectoryEventSink = (event: DirectoryClientEvent) => void;
