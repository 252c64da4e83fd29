import { z } from 'zod';
import { BotError, messageOf } from '../errors.js';
import type { DirectoryEventSink } from './events.js';
import type { Transport } from './http-transport.js';
import { parseRecords } from './parse-records.js';
import { estimateQueryComplexity } from './query-complexity.js';
import type {
  CallOptions,
  Connection,
  DirectoryCollection,
  DirectoryComment,
  DirectoryPost,
  DirectoryTopic,
  DirectoryUserProfile,
} from './types.js';
import { errorFromGraphqlErrors } from './upstream-errors.js';
import {
  COLLECTION_QUERY,
  COLLECTIONS_QUERY,
  COMMENT_QUERY,
  POST_QUERY,
  POSTS_QUERY,
  RANKED_POST_IDS_QUERY,
  TOPICS_QUERY,
  USER_QUERY,
} from './v2-queries.js';
import {
  connectionEnvelopeSchema,
  v2CollectionSchema,
  v2CommentSchema,
  v2PostSchema,
  v2TopicSchema,
  v2UserProfileSchema,
} from './v2-records.js';

/** V2: the GraphQL endpoint (spec 4.1) and `GET /v2/oauth/token` (4.2). */

const GRAPHQL_PATH = '/v2/api/graphql';

const rankedIdsSchema = z.object({ edges: z.array(z.object({ node: z.object({ id: z.string() }) })) });

export type PostsOrder = 'FEATURED_AT' | 'NEWEST' | 'RANKING' | 'VOTES';
export type CollectionsOrder = 'FEATURED_AT' | 'FOLLOWERS_COUNT' | 'NEWEST';
export type TopicsOrder = 'FOLLOWERS_COUNT' | 'NEWEST';

export interface ListPostsParams {
  /** Page size; the live service returns at most 20 posts per page. */
  first: number;
  after?: string;
  order?: PostsOrder;
  featured?: boolean;
  /** ISO 8601 timestamp. */
  postedAfter?: string;
  postedBefore?: string;
  /** Topic slug. */
  topic?: string;
}

export interface ListCollectionsV2Params {
  first: number;
  after?: string;
  order?: CollectionsOrder;
  featured?: boolean;
  userId?: string;
  postId?: string;
}

export interface ListTopicsParams {
  first: number;
  after?: string;
  order?: TopicsOrder;
  /** Matches topic names and aliases. */
  query?: string;
}

export type IdOrSlug = { id: string } | { slug: string };
export type UserRef = { id: string } | { username: string };

export interface V2Resources {
  listPosts(params: ListPostsParams, options?: CallOptions): Promise<Connection<DirectoryPost>>;
  /** The ids of the `first` posts made after `postedAfter`, in the directory's ranking order. */
  rankedPostIds(params: { first: number; postedAfter: string }, options?: CallOptions): Promise<string[]>;
  /** Null when there is no such post. Interactive by default (a person asked). */
  getPost(ref: IdOrSlug, options?: CallOptions): Promise<DirectoryPost | null>;
  listCollectionsV2(
    params: ListCollectionsV2Params,
    options?: CallOptions,
  ): Promise<Connection<DirectoryCollection>>;
  getCollection(ref: IdOrSlug, options?: CallOptions): Promise<DirectoryCollection | null>;
  getComment(id: string, options?: CallOptions): Promise<DirectoryComment | null>;
  /** The user with the first `first` (default 5) posts they made and collections they follow. */
  getUser(ref: UserRef, options?: CallOptions & { first?: number }): Promise<DirectoryUserProfile | null>;
  listTopics(params: ListTopicsParams, options?: CallOptions): Promise<Connection<DirectoryTopic>>;
  /** `GET /v2/oauth/token`; the spec does not define its fields, so the body is returned as is. */
  tokenInfo(options?: CallOptions): Promise<Record<string, unknown>>;
  /**
   * Escape hatch: sends any query, budgeted by its estimated complexity, and returns `data`.
   * Errors (standard or the service's non-standard ones) become BotErrors.
   */
  graphql(
    query: string,
    variables?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;
}

/** Wires the V2 operations onto a transport. */
export function createV2Resources(deps: { transport: Transport; onEvent: DirectoryEventSink }): V2Resources {
  const { transport, onEvent } = deps;

  async function graphql(
    query: string,
    variables: Record<string, unknown> = {},
    options: CallOptions = {},
    defaultPriority: 'background' | 'interactive' = 'background',
  ): Promise<Record<string, unknown>> {
    const defined = Object.fromEntries(Object.entries(variables).filter(([, value]) => value !== undefined));
    let cost: number;
    try {
      cost = estimateQueryComplexity(query, defined);
    } catch (error) {
      throw new BotError('upstream_bad_request', `GraphQL query does not parse: ${messageOf(error)}`, {
        cause: error,
      });
    }
    const url = transport.urlFor(GRAPHQL_PATH);
    const response = await transport.send({
      method: 'POST',
      path: GRAPHQL_PATH,
      body: { query, variables: defined },
      quotaClass: 'v2-complexity',
      cost,
      // Queries only read, so they are as safe to repeat as a GET.
      kind: 'read',
      priority: options.priority ?? defaultPriority,
      ...(options.signal ? { signal: options.signal } : {}),
      inspect: (json, status) => {
        const errors = json['errors'];
        if (Array.isArray(errors) && errors.length > 0) {
          return errorFromGraphqlErrors(errors, { method: 'POST', url, status, resetSeconds: undefined });
        }
        return undefined;
      },
    });
    if (response.notModified) {
      throw new BotError('upstream_bad_response', `POST ${url}: unexpected 304`, { method: 'POST', url });
    }
    const data = response.json['data'];
    if (data === null || typeof data !== 'object' || Array.isArray(data)) {
      throw new BotError('upstream_bad_response', `POST ${url}: response has no data object`, {
        method: 'POST',
        url,
        status: response.status,
      });
    }
    return data as Record<string, unknown>;
  }

  function connection<T>(
    data: Record<string, unknown>,
    field: string,
    schema: z.ZodType<T>,
    resource: string,
  ): Connection<T> {
    const envelope = connectionEnvelopeSchema.safeParse(data[field]);
    if (!envelope.success) {
      throw badShape(field, envelope.error.issues);
    }
    const nodes = envelope.data.edges.map((edge) => edge.node);
    const parsed = parseRecords(nodes, schema, resource, onEvent);
    return {
      nodes: parsed.items,
      pageInfo: {
        endCursor: envelope.data.pageInfo.endCursor ?? null,
        hasNextPage: envelope.data.pageInfo.hasNextPage,
      },
      skipped: parsed.skipped,
    };
  }

  function single<T>(data: Record<string, unknown>, field: string, schema: z.ZodType<T>): T | null {
    const raw = data[field];
    if (raw === null || raw === undefined) return null;
    const parsed = schema.safeParse(raw);
    // A lookup answers one question: an unreadable answer is an error, not a silent "none".
    if (!parsed.success) throw badShape(field, parsed.error.issues);
    return parsed.data;
  }

  function badShape(field: string, issues: readonly { path: PropertyKey[]; message: string }[]): BotError {
    const url = transport.urlFor(GRAPHQL_PATH);
    const first = issues[0];
    const path = first ? [field, ...first.path.map(String)].join('.') : field;
    return new BotError(
      'upstream_bad_response',
      `POST ${url}: ${path}: ${first?.message ?? 'unexpected shape'}`,
      {
        method: 'POST',
        url,
        details: { path },
      },
    );
  }

  const refVariables = (ref: IdOrSlug) => ('id' in ref ? { id: ref.id } : { slug: ref.slug });

  return {
    graphql: (query, variables, options) => graphql(query, variables, options),
    async listPosts(params, options) {
      const data = await graphql(POSTS_QUERY, { ...params }, options);
      return connection(data, 'posts', v2PostSchema, 'post');
    },
    async rankedPostIds(params, options) {
      const data = await graphql(RANKED_POST_IDS_QUERY, { ...params }, options);
      const parsed = rankedIdsSchema.safeParse(data['posts']);
      if (!parsed.success) throw badShape('posts', parsed.error.issues);
      return parsed.data.edges.map((edge) => edge.node.id);
    },
    async getPost(ref, options) {
      const data = await graphql(POST_QUERY, refVariables(ref), options, 'interactive');
      return single(data, 'post', v2PostSchema);
    },
    async listCollectionsV2(params, options) {
      const data = await graphql(COLLECTIONS_QUERY, { ...params }, options);
      return connection(data, 'collections', v2CollectionSchema, 'collection');
    },
    async getCollection(ref, options) {
      const data = await graphql(COLLECTION_QUERY, refVariables(ref), options, 'interactive');
      return single(data, 'collection', v2CollectionSchema);
    },
    async getComment(id, options) {
      const data = await graphql(COMMENT_QUERY, { id }, options, 'interactive');
      return single(data, 'comment', v2CommentSchema);
    },
    async getUser(ref, options = {}) {
      const { first = 5, ...callOptions } = options;
      const variables = 'id' in ref ? { id: ref.id, first } : { username: ref.username, first };
      const data = await graphql(USER_QUERY, variables, callOptions, 'interactive');
      return single(data, 'user', v2UserProfileSchema);
    },
    async listTopics(params, options) {
      const data = await graphql(TOPICS_QUERY, { ...params }, options);
      return connection(data, 'topics', v2TopicSchema, 'topic');
    },
    async tokenInfo(options = {}) {
      const response = await transport.send({
        method: 'GET',
        path: '/v2/oauth/token',
        quotaClass: 'v2-requests',
        cost: 1,
        kind: 'read',
        priority: options.priority ?? 'interactive',
        ...(options.signal ? { signal: options.signal } : {}),
      });
      if (response.notModified) return {};
      return response.json;
    },
  };
}
