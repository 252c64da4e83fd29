import type { SubscriptionSeed } from '../subscriptions/index.js';

/** The validated configuration, grouped by concern. Built once at start-up by `loadConfig`. */
export interface Config {
  server: {
    port: number;
    /**
     * Whether PORT was set. A `worker` process binds its probe routes only then: Heroku gives
     * worker dynos no routed port, while Kubernetes, Fly and Render probe one.
     */
    portSet?: boolean;
    /**
     * The interface to listen on; undefined: every interface. HOST when set; else 127.0.0.1 for a
     * sandbox no chat platform has to reach (and not on Heroku), every interface for the rest.
     */
    host: string | undefined;
    logLevel: 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal' | 'silent';
    logFormat: 'auto' | 'json' | 'pretty';
    /** LOG_LEVEL was set (not the default): the person wants these logs where they look. */
    logLevelSet: boolean;
    shutdownTimeoutMs: number;
    /** Running on Heroku (the DYNO variable is set). */
    onHeroku: boolean;
  };
  store: {
    url: string;
    /** Which variable the URL came from, for start-up and doctor reports. */
    source: 'STORE_URL' | 'REDIS_URL' | 'DATABASE_URL' | 'default';
    /**
     * STORE_ENCRYPTION_KEY (and _PREVIOUS while rotating), decoded: seals the tokens kept in the
     * store. undefined when unset, which only a bot without multi-workspace install may be.
     */
    encryption: { current: Buffer; previous: Buffer | undefined } | undefined;
  };
  /** Delivery workers on Redis (ADR 005); absent in hand-made configs: as `mode: 'off'`. */
  workers?: {
    mode: 'auto' | 'off';
    /** `start` runs a worker in-process too. */
    inWeb: boolean;
    concurrency: number;
  };
  directory: {
    /** undefined exactly when `sandbox.enabled`: the embedded emulator is the directory. */
    baseUrl: string | undefined;
    token: string | undefined;
    lookupReserveFraction: number;
  };
  feeds: {
    subscriptions: SubscriptionSeed[];
    adminUserIds: string[];
    pollMinIntervalMs: number;
    pollerLeaseTtlMs: number;
    dedupeTtlMs: number;
    /** Edits in place: messages younger than `maxAgeMs` (0: never), at most one per `minIntervalMs`. */
    edits: { maxAgeMs: number; minIntervalMs: number };
    liveRemindMinutes: number;
    clearNotifications: boolean;
  };
  slack:
    | {
        botToken: string | undefined;
        signingSecret: string;
        appToken: string | undefined;
        apiUrl: string;
        /** The outbox's pace for chat.postMessage across all channels (Slack publishes no number). */
        workspaceMessagesPerMinute: number;
        oauth: { clientId: string; clientSecret: string; stateSecret: string } | undefined;
      }
    | undefined;
  discord:
    | {
        token: string | undefined;
        applicationId: string;
        publicKey: string | undefined;
        apiUrl: string;
        gateway: boolean;
        /** A second top-level command for subscribe/unsubscribe, gated by Manage Channels; undefined = none. */
        restrictedCommandName: string | undefined;
      }
    | undefined;
  /**
   * Webhooks from `WEBHOOK_<NAME>_URL` (and `_SECRET`), by name. Their kind comes from the URL,
   * which the app recognises when it builds the webhook adapters (src/app/webhook-setup.ts).
   */
  webhooks: ConfiguredWebhookVariables[];
  /** The control panel (docs/panel.md). */
  panel: {
    /** PANEL_URL without a trailing slash; undefined: no platform sign-in (the sandbox signs in locally). */
    url: string | undefined;
    /** PANEL_SESSION_SECRET, the first signing; empty without PANEL_URL. */
    sessionSecrets: string[];
    /** `platform:userId` of the operators, who see every installation. */
    operatorIds: string[];
    /** Sign in with Slack: the app's OAuth client (SLACK_CLIENT_ID/SECRET), when set with PANEL_URL. */
    slack: { clientId: string; clientSecret: string } | undefined;
    /** Sign in with Discord: the application's client secret (the id is DISCORD_APPLICATION_ID), with PANEL_URL. */
    discord: { clientId: string; clientSecret: string } | undefined;
  };
  sandbox: {
    /**
     * Sandbox mode: the embedded emulator invents the directory's data, every feed goes to
     * the console, the default store is the sandbox's own file. On with nothing configured,
     * or with SANDBOX=true; never with Slack or Discord unless SANDBOX=true says so.
     */
    enabled: boolean;
    activityPerMinute: number;
  };
  /** Every secret value in the configuration, so the logger can scrub them from any line. */
  secrets: string[];
}

/** One webhook as the environment gives it. */
export interface ConfiguredWebhookVariables {
  /** As SUBSCRIPTIONS names it: `team-news` for WEBHOOK_TEAM_NEWS_URL. */
  name: string;
  url: string;
  secret: string | undefined;
  /** The variable holding the URL. */
  variable: string;
}

export const DEFAULT_STORE_URL = 'sqlite://./data/directory-bot.sqlite';
/**
 * The sandbox's default store: its own file, so invented data never shares a file with a
 * real directory's state (which is keyed by directory anyway, see directory-keys.ts).
 */
export const DEFAULT_SANDBOX_STORE_URL = 'sqlite://./data/sandbox.sqlite';
