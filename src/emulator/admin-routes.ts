import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorAdmin } from './admin.js';
import { ClockNotManualError } from './admin.js';
import { checkAdminInput } from './admin-input.js';
import { ApiError, notFound } from './api-error.js';
import type { Clock } from './clock.js';
import { InvalidFaultError } from './faults.js';
import { readBody } from './http-body.js';
import { send } from './http-send.js';
import type { Quotas } from './quotas.js';
import { UnknownRecordError } from './record-input.js';

export interface AdminAnswer {
  status: number;
  body: unknown;
}

type Body = Record<string, unknown>;

/** True for paths of the admin API, which is served before faults, authentication and quotas. */
export function isAdminPath(path: string): boolean {
  return path === '/__admin' || path.startsWith('/__admin/');
}

/** Serves one admin request: reads its JSON body, answers with the anonymous V1 quota headers. */
export async function serveAdmin(
  req: IncomingMessage,
  res: ServerResponse,
  deps: { admin: EmulatorAdmin; clock: Clock; quotas: Quotas },
): Promise<void> {
  const method = req.method ?? 'GET';
  const path = new URL(req.url ?? '/', 'http://emulator.invalid').pathname;
  const text = method === 'GET' || method === 'HEAD' ? '' : await readBody(req);
  let body: Body = {};
  try {
    const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Body;
  } catch {
    send(
      res,
      {
        status: 400,
        body: JSON.stringify({ error: 'invalid_parameter', error_description: 'body is not JSON' }),
      },
      deps.quotas.snapshot(undefined, 'v1'),
    );
    return;
  }
  const answer = handleAdmin(
    method,
    path.endsWith('/') && path.length > 9 ? path.slice(0, -1) : path,
    body,
    deps.admin,
    deps.clock,
  );
  send(
    res,
    { status: answer.status, body: JSON.stringify(answer.body) },
    deps.quotas.snapshot(undefined, 'v1'),
  );
}

/**
 * The HTTP admin API under /__admin/ (JSON in, JSON out). It has no authentication: the
 * emulator is a local test double. Bad input answers 400 `invalid_parameter`, unknown
 * records 404 `not_found`, and moving the system clock 409 `clock_not_manual`.
 */
export function handleAdmin(
  method: string,
  path: string,
  body: Body,
  admin: EmulatorAdmin,
  clock: Clock,
): AdminAnswer {
  try {
    return route(method, path, body, admin, clock);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.toBody() };
    if (error instanceof UnknownRecordError) return { status: 404, body: notFound(error.message).toBody() };
    if (error instanceof InvalidFaultError || error instanceof RangeError || error instanceof TypeError) {
      return { status: 400, body: { error: 'invalid_parameter', error_description: error.message } };
    }
    if (error instanceof ClockNotManualError) {
      return { status: 409, body: { error: 'clock_not_manual', error_description: error.message } };
    }
    throw error;
  }
}

function numberField(body: Body, name: string): number {
  const value = body[name];
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new ApiError(400, 'invalid_parameter', `${name} must be a non-negative number`);
  }
  return value;
}

function route(method: string, path: string, body: Body, admin: EmulatorAdmin, clock: Clock): AdminAnswer {
  const ok = (value: unknown): AdminAnswer => ({ status: 200, body: value });
  const created = (value: unknown): AdminAnswer => ({ status: 201, body: value });
  const key = `${method} ${path}`;
  const feature = /^POST \/__admin\/collections\/(\d+)\/feature$/.exec(key);
  if (feature) return ok(admin.featureCollection(Number(feature[1])));
  const votes = /^POST \/__admin\/posts\/(\d+)\/votes$/.exec(key);
  if (votes) {
    admin.addVotes(Number(votes[1]), numberField(body, 'votes'));
    return ok({ added: body['votes'] });
  }
  // Removed upstream, as moderation or a cancellation would: the record leaves both APIs.
  const removal = /^DELETE \/__admin\/(posts|comments|live)\/(\d+)$/.exec(key);
  if (removal) {
    const id = Number(removal[2]);
    if (removal[1] === 'posts') admin.removePost(id);
    else if (removal[1] === 'comments') admin.removeComment(id);
    else admin.cancelLive(id);
    return ok({ removed: id });
  }

  switch (key) {
    case 'GET /__admin/':
    case 'GET /__admin/state':
      return ok({
        now: clock.now(),
        counts: admin.counts(),
        tokens: admin.tokens(),
        faults: admin.pendingFaults(),
      });
    case 'GET /__admin/counts':
      return ok(admin.counts());
    case 'POST /__admin/comments':
      return created(admin.addComment(checkAdminInput('comment', body)));
    case 'POST /__admin/posts':
      return created(admin.addPost(checkAdminInput('post', body)));
    case 'POST /__admin/collections':
      return created(admin.addCollection(checkAdminInput('collection', body)));
    case 'POST /__admin/live':
      return created(admin.scheduleLive(checkAdminInput('live', body)));
    case 'POST /__admin/notifications': {
      const { token, ...input } = body;
      if (typeof token !== 'string') throw new ApiError(400, 'invalid_parameter', 'token must be a string');
      return created(admin.addNotification(token, checkAdminInput('notification', input)));
    }
    case 'GET /__admin/clock':
      return ok({ now: clock.now(), iso: new Date(clock.now()).toISOString() });
    case 'POST /__admin/clock/advance':
      admin.advanceClock(numberField(body, 'ms'));
      return ok({ now: clock.now(), iso: new Date(clock.now()).toISOString() });
    case 'POST /__admin/tick':
      return ok({ events: admin.tick(numberField(body, 'ms')), now: clock.now() });
    case 'POST /__admin/quotas/reset':
      admin.resetQuotas();
      return ok({ reset: true });
    case 'GET /__admin/faults':
      return ok({ faults: admin.pendingFaults() });
    case 'POST /__admin/faults':
      admin.injectFault(body as never);
      return created({ faults: admin.pendingFaults() });
    case 'DELETE /__admin/faults':
      admin.clearFaults();
      return ok({ faults: [] });
    case 'GET /__admin/stats':
      return ok(admin.stats());
    case 'POST /__admin/stats/reset':
      admin.resetStats();
      return ok(admin.stats());
    default:
      throw notFound(`admin route ${key}`);
  }
}
