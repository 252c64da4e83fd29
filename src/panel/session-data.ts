import type { PanelUser } from './access.js';
import type { PendingSignIn } from './sign-in/sign-in-provider.js';

/** The answer to the person's last change, shown once on the next page. */
export interface Notice {
  text: string;
  refused: boolean;
  /** The subscription whose preview to show under it (a new one's first look). */
  previewOf?: { platform: string; channelId: string; subscriptionId: string };
}

declare module 'express-session' {
  interface SessionData {
    user?: PanelUser;
    /** A sign-in under way: its state, PKCE verifier and nonce, until its callback (used once). */
    pending?: PendingSignIn;
    notice?: Notice;
  }
}
