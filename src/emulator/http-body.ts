import type { IncomingMessage } from 'node:http';
import { ApiError } from './api-error.js';

const MAX_BODY_BYTES = 1_000_000;

/**
 * Reads a request body as text; a body over 1 MB is refused with 413 before it is all read (the
 * request is destroyed, as leaving a `for await` would). Listeners rather than an async
 * iterator: this runs on every GraphQL request, and the iterator cost more than the read.
 */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        req.destroy();
        reject(new ApiError(413, 'payload_too_large', 'Request body is over 1 MB'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.once('error', reject);
    // A client gone before the end: settle anyway (a no-op once `end` resolved).
    req.once('close', () => reject(new ApiError(400, 'invalid_parameter', 'The request body was cut off')));
  });
}
