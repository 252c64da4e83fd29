import { GraphQLError } from 'graphql';
import type { CommentRecord, UserRecord } from './model.js';
import type { Store } from './store.js';
import { type ConnectionArgs, toConnection } from './v2-connection.js';

/** Per-request state of a V2 execution. */
export interface V2Context {
  store: Store;
  viewerId: number;
  quirks: boolean;
  now: number;
}

export type Args = Record<string, unknown> & ConnectionArgs;
/** A field resolver of one object type: its record, the field's arguments, the request's context. */
export type Resolver<S> = (source: S, args: Args, ctx: V2Context) => unknown;

export const IMAGE_BASE = 'https://images.example-directory.test';

/** Parses an ID argument; ids that are not positive integers find nothing. */
export function numericId(value: unknown): number | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  return /^[1-9]\d*$/.test(text) ? Number(text) : undefined;
}

/** A page of a list as a Relay connection, with the live service's quirks when asked for. */
export function connection<T>(items: readonly T[], args: Args, ctx: V2Context) {
  return toConnection(items, args, ctx.quirks);
}

/** A user a record points at; a dangling reference is a bug in the data, reported as a GraphQL error. */
export function existingUser(ctx: V2Context, id: number): UserRecord {
  const found = ctx.store.users.get(id);
  if (!found) throw new GraphQLError(`User ${id} is missing`);
  return found;
}

/** Newest first, or most voted first for `order: VOTES_COUNT`. */
export function commentsOrdered(comments: CommentRecord[], order: unknown): CommentRecord[] {
  return comments.sort((a, b) =>
    order === 'VOTES_COUNT' ? b.votes - a.votes || b.id - a.id : b.createdAt - a.createdAt || b.id - a.id,
  );
}

export function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}
