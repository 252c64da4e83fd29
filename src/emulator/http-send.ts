import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { QuotaSnapshot } from './quotas.js';

/** Headers the live service sends on every response (spec section 8). */
const STANDARD_HEADERS: Record<string, string> = {
  'X-Frame-Options': 'SAMEORIGIN',
  'X-XSS-Protection': '1; mode=block',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'max-age=0, private, must-revalidate',
};

export const JSON_TYPE = 'application/json; charset=utf-8';

export interface Outgoing {
  status: number;
  /** The exact body (text, or bytes already encoded by a cache); undefined for a 304. */
  body?: string | Buffer;
  contentType?: string;
  etag?: string;
}

/** A strong or weak ETag over a body. */
export function etagFor(body: string | Buffer, strength: 'strong' | 'weak'): string {
  const tag = `"${createHash('sha1').update(body).digest('hex')}"`;
  return strength === 'weak' ? `W/${tag}` : tag;
}

/** Weak comparison (RFC 9110 13.1.2): does `If-None-Match` name this ETag? */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch
    .split(',')
    .some((candidate) => candidate.trim() === '*' || opaque(candidate) === opaque(etag));
}

/** Writes a response with the standard and rate-limit headers and an exact Content-Length. */
export function send(res: ServerResponse, outgoing: Outgoing, quota: QuotaSnapshot): void {
  const headers: Record<string, string> = {
    ...STANDARD_HEADERS,
    'X-Rate-Limit-Limit': String(quota.limit),
    'X-Rate-Limit-Remaining': String(quota.remaining),
    'X-Rate-Limit-Reset': String(quota.resetSeconds),
    'Content-Type': outgoing.contentType ?? JSON_TYPE,
  };
  if (outgoing.etag) headers['ETag'] = outgoing.etag;
  if (outgoing.body === undefined) {
    // 304: no body, so no Content-Length describing one.
    res.writeHead(outgoing.status, headers);
    res.end();
    return;
  }
  const payload = typeof outgoing.body === 'string' ? Buffer.from(outgoing.body, 'utf8') : outgoing.body;
  headers['Content-Length'] = String(payload.byteLength);
  res.writeHead(outgoing.status, headers);
  res.end(payload);
}
