/**
 * A chat platform's home surface (Slack's App Home tab): what the core shows one person, and the
 * buttons on it. The core decides what is shown, who may press what and when a view is stale; the
 * adapter renders it and publishes it within the platform's limits.
 */

/** The person looking at their home, as the adapter established it from the platform. */
export interface HomeViewer {
  platform: string;
  /** Slack team id (or enterprise id for an org-wide install). */
  workspaceId: string;
  userId: string;
  /** The platform says this person may change channel settings (Slack: workspace admin or owner). */
  canManageChannels: boolean;
  /**
   * The bot serves this one workspace only (a single bot token): subscriptions that name no
   * workspace (routes from SUBSCRIPTIONS) are this workspace's too.
   */
  soleWorkspace: boolean;
}

/** One subscription as the home lists it: plain text, escaped by the renderer. */
export interface HomeSubscription {
  id: string;
  channelId: string;
  /** Feed and filters, as `/directory subscriptions` says them. */
  summary: string;
  /** Why it is paused, when it is. */
  paused?: string;
  /** When this instance last delivered something for it, as text (`14:05 UTC`), when known. */
  lastDelivery?: string;
}

export interface HomeChannel {
  channelId: string;
  subscriptions: HomeSubscription[];
}

/** Everything one home shows, platform-neutral. */
export interface HomeView {
  /** The viewer may change these channels' subscriptions; otherwise `permission` says who may. */
  canManage: boolean;
  permission: string;
  channels: HomeChannel[];
  /** The bot's status, as `/directory status` computes it. */
  status: {
    lead: string;
    lines: { name: string; value: string }[];
    /** Paused subscriptions of the viewer's channels, with why (managers only). */
    paused: HomeSubscription[];
    /** Paused ones only counted, for a viewer who may not see them. */
    pausedElsewhere: number;
  };
  /** The answer to the viewer's last button press, shown once. */
  notice?: { text: string; refused: boolean };
}

export type HomeAction = 'pause' | 'resume' | 'remove';

/** What pressing a home button did. */
export interface HomeActionResult {
  text: string;
  refused: boolean;
  /** Something changed: every recent viewer's home will be republished (the presser's included). */
  changed: boolean;
}

/** Viewers whose home is out of date on one platform, for the adapter to republish. */
export type StaleHomes = (viewers: readonly { workspaceId: string; userId: string }[]) => void;

export interface HomeService {
  /** The home for `viewer` now; remembers them as a viewer to keep current. */
  view(viewer: HomeViewer): Promise<HomeView>;
  /** A button on the home, authorised exactly as the equivalent `/directory` command. */
  act(
    viewer: HomeViewer,
    action: HomeAction,
    channelId: string,
    subscriptionId: string,
  ): Promise<HomeActionResult>;
  /** Called with the recent viewers of a platform whose home a subscription change made stale. */
  onStale(platform: string, listener: StaleHomes): void;
}
