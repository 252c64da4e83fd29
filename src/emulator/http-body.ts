import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

const MAX_BODY_BYTES = 1_000_000;

/** Reads a request body as text; a body over 1 MB is refused with 413 before it is all read. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'payload_too_large', 'Request body is over 1 MB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
