import { type REST, Routes } from 'discord.js';
import type { DiscordMessageBody } from './render-message.js';

/** An interaction callback: `{ type, data }` as sent to Discord. */
export interface InteractionCallback {
  type: number;
  data?: unknown;
}

/**
 * How the adapter answers one interaction. Only the initial response differs between
 * transports (the HTTP request's own response vs `POST /interactions/{id}/{token}/callback`
 * for gateway interactions); edits and follow-ups always go through the webhook routes.
 */
export interface InteractionResponder {
  /** The initial response, which Discord requires within 3 s. */
  respond(callback: InteractionCallback): Promise<void>;
  /** Replace the deferred "thinking…" message (`PATCH …/messages/@original`). */
  editOriginal(body: Omit<DiscordMessageBody, 'flags'>): Promise<void>;
  /** A new message after the initial response (its own ephemeral flag applies). */
  followUp(body: DiscordMessageBody): Promise<void>;
  deleteOriginal(): Promise<void>;
}

type InitialResponse = (callback: InteractionCallback) => Promise<void>;

/**
 * A responder whose follow-ups use the interaction token on the webhook routes. Those
 * routes need no bot token (`auth: false`) and are exempt from the global rate limit.
 */
export function createResponder(
  rest: REST,
  interaction: { id: string; token: string; applicationId: string },
  initial?: InitialResponse,
): InteractionResponder {
  const { id, token, applicationId } = interaction;
  return {
    respond:
      initial ??
      (async (callback) => {
        await rest.post(Routes.interactionCallback(id, token), { body: callback, auth: false });
      }),
    async editOriginal(body) {
      await rest.patch(Routes.webhookMessage(applicationId, token, '@original'), { body, auth: false });
    },
    async followUp(body) {
      await rest.post(Routes.webhook(applicationId, token), { body, auth: false });
    },
    async deleteOriginal() {
      await rest.delete(Routes.webhookMessage(applicationId, token, '@original'), { auth: false });
    },
  };
}
