import type { KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { REST } from 'discord.js';
import type { HttpHandler, Logger } from '../../src/ports/index.js';
import type { InteractionFlow } from './interaction-flow.js';
import { CallbackType, InteractionKind, interactionSchema } from './interaction-payload.js';
import { createResponder, type InteractionCallback } from './interaction-responder.js';
import { isFreshTimestamp, verifyDiscordSignature } from './verify-signature.js';

export const INTERACTIONS_PATH = '/discord/interactions';
/** Interaction payloads are small; anything near this is not from Discord. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface HttpInteractionsDeps {
  publicKey: KeyObject;
  rest: REST;
  flow: InteractionFlow;
  logger: Logger;
  /** Clock in ms for the replay window. */
  now: () => number;
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (res.headersSent) return;
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const json = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The HTTP interactions endpoint (`POST /discord/interactions`): verifies the Ed25519
 * signature over the raw body before anything else (401 when missing or wrong, as Discord's
 * routine probes expect, and when its timestamp is more than five minutes from `now`: a
 * replay), answers PING with PONG, and hands commands to the shared flow,
 * whose first response becomes this request's response.
 */
export function createHttpInteractionsHandler(deps: HttpInteractionsDeps): HttpHandler {
  const { logger } = deps;
  return async (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== INTERACTIONS_PATH) return send(res, 404);
    if (req.method !== 'POST') return send(res, 405);

    const raw = await readBody(req);
    if (raw === undefined) return send(res, 413);
    const timestamp = header(req, 'x-signature-timestamp');
    const valid = verifyDiscordSignature(deps.publicKey, header(req, 'x-signature-ed25519'), timestamp, raw);
    if (!valid) {
      logger.warn('discord interaction with a missing or invalid signature refused');
      return send(res, 401, { error: 'invalid request signature' });
    }
    // A valid signature over an old timestamp is a replayed request: refuse it the same way.
    if (!isFreshTimestamp(timestamp, deps.now())) {
      logger.warn({ timestamp }, 'discord interaction with a stale or malformed timestamp refused');
      return send(res, 401, { error: 'invalid request signature' });
    }

    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      return send(res, 400, { error: 'body is not JSON' });
    }
    const parsed = interactionSchema.safeParse(json);
    if (!parsed.success) {
      logger.warn({ issues: parsed.error.issues.length }, 'malformed discord interaction refused');
      return send(res, 400, { error: 'malformed interaction' });
    }
    const interaction = parsed.data;
    if (interaction.type === InteractionKind.Ping) return send(res, 200, { type: CallbackType.Pong });

    // The first response answers the HTTP request itself; later edits go through REST.
    const responder = createResponder(
      deps.rest,
      { id: interaction.id, token: interaction.token, applicationId: interaction.application_id },
      async (callback: InteractionCallback) => send(res, 200, callback),
    );
    await deps.flow(interaction, responder);
    // The flow answers everything it understands; anything else must still get a response.
    send(res, 400, { error: 'unsupported interaction' });
  };
}
