import { blockKitViolations } from './block-kit-limits.js';
import { operationSpecParameters } from './slack-spec.js';

type Answer = { status: number; body: Record<string, unknown>; headers?: Record<string, string> };

/** A sliding-window limit: at most `limit` calls in any `windowMs`. */
export interface TierLimit {
  limit: number;
  windowMs: number;
}

/**
 * views.publish is Tier 4: "100+ per minute", counted per method per workspace per app
 * (CONTRACTS.md §1(c); java-slack-sdk MethodsRateLimits: VIEWS_PUBLISH Tier4). The fake holds
 * the floor, 100 in any minute, and answers 429 with Retry-After past it.
 */
export const VIEWS_PUBLISH_TIER: TierLimit = { limit: 100, windowMs: 60_000 };

/** A Home tab view holds at most 100 blocks (CONTRACTS.md §1(e)). */
const HOME_MAX_BLOCKS = 100;

/**
 * The fake Slack's views.publish: checks the parameters against the vendored OpenAPI spec (names
 * and required ones), the view against Block Kit's limits for a Home tab (100 blocks, each block's
 * own limits), and the call against the method's tier per workspace. Keeps the last view
 * published to each user of each workspace, as the user would see it.
 */
export class FakeViews {
  /** `${teamId}:${userId}` → the last view published, parsed. */
  readonly published = new Map<string, { type: string; blocks: Record<string, unknown>[] }>();
  /** 429s answered by the tier limiter. */
  rateLimited = 0;
  private readonly parameters = operationSpecParameters('/views.publish');
  private readonly sent = new Map<string, number[]>();

  constructor(
    private readonly now: () => number,
    private readonly violations: string[],
    private readonly tier: TierLimit = VIEWS_PUBLISH_TIER,
  ) {}

  /** The home `userId` of `teamId` sees now, if any was published. */
  homeOf(teamId: string, userId: string) {
    return this.published.get(`${teamId}:${userId}`);
  }

  publish(teamId: string, params: Record<string, unknown>): Answer {
    const fail = (error: string, messages: string[] = []): Answer => ({
      status: 200,
      body: { ok: false, error, ...(messages.length > 0 ? { response_metadata: { messages } } : {}) },
    });
    const known = new Set(this.parameters.map((p) => p.name));
    for (const name of Object.keys(params)) {
      if (!known.has(name)) {
        this.violations.push(`views.publish: parameter ${name} is not in the OpenAPI spec`);
        return fail('invalid_arg_name');
      }
    }
    for (const p of this.parameters) {
      if (p.required === true && p.name !== 'token' && params[p.name] === undefined) {
        this.violations.push(`views.publish: required parameter ${p.name} is missing`);
        return fail('invalid_arguments', [`missing required field: ${p.name}`]);
      }
    }
    const userId = String(params['user_id']);
    if (!/^[UW][A-Z0-9]+$/.test(userId)) return fail('invalid_arguments', ['invalid `user_id`']);
    let view: { type?: unknown; blocks?: unknown };
    try {
      // "A view payload … This must be a JSON-encoded string." The Web API client encodes objects.
      view =
        typeof params['view'] === 'string' ? JSON.parse(params['view']) : (params['view'] as typeof view);
    } catch {
      this.violations.push('views.publish: view is not JSON');
      return fail('invalid_arguments', ['view must be a JSON-encoded string']);
    }
    if (view.type !== 'home') {
      this.violations.push(`views.publish: view type ${String(view.type)} is not home`);
      return fail('invalid_arguments', ['view.type must be home']);
    }
    const problems = blockKitViolations(view.blocks, HOME_MAX_BLOCKS);
    if (problems.length > 0) {
      this.violations.push(...problems.map((p) => `views.publish: ${p}`));
      return fail('invalid_blocks', problems);
    }

    const now = this.now();
    const recent = (this.sent.get(teamId) ?? []).filter((at) => now - at < this.tier.windowMs);
    this.sent.set(teamId, recent);
    if (recent.length >= this.tier.limit) {
      this.rateLimited += 1;
      const retryAfter = Math.max(1, Math.ceil(((recent[0] ?? now) + this.tier.windowMs - now) / 1000));
      return {
        status: 429,
        body: { ok: false, error: 'ratelimited' },
        headers: { 'retry-after': String(retryAfter) },
      };
    }
    recent.push(now);
    const stored = { type: 'home', blocks: view.blocks as Record<string, unknown>[] };
    this.published.set(`${teamId}:${userId}`, stored);
    return {
      status: 200,
      body: {
        ok: true,
        view: { id: `V${teamId}${userId}`, team_id: teamId, type: 'home', blocks: stored.blocks },
      },
    };
  }
}
