import { GraphQLError } from 'graphql';

/** The most nodes any connection page holds (the live service caps `posts` at 20). */
export const MAX_PAGE_SIZE = 20;

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  nodes: T[];
  pageInfo: {
    startCursor: string | null;
    endCursor: string | null;
    hasNextPage: boolean;
    hasPreviousPage: boolean;
  };
  /** The size of the returned page, not the grand total (REAL-WORLD.md). */
  totalCount: number;
}

/** Cursor of the item at a 1-based position: base64 of the number, unpadded in quirks mode. */
export function encodeCursor(position: number, quirks: boolean): string {
  const encoded = Buffer.from(String(position), 'utf8').toString('base64');
  return quirks ? encoded.replace(/=+$/, '') : encoded;
}

/** Reads a cursor with or without padding; anything else is a GraphQL error. */
export function decodeCursor(cursor: string): number {
  const text = /^[A-Za-z0-9+/]+={0,2}$/.test(cursor) ? Buffer.from(cursor, 'base64').toString('utf8') : '';
  if (!/^[1-9]\d*$/.test(text)) throw new GraphQLError(`Invalid cursor: ${JSON.stringify(cursor)}`);
  return Number(text);
}

/**
 * Slices an ordered list into a Relay connection page (first/after forwards, last/before
 * backwards), never more than MAX_PAGE_SIZE nodes.
 */
export function toConnection<T>(items: readonly T[], args: ConnectionArgs, quirks: boolean): Connection<T> {
  for (const name of ['first', 'last'] as const) {
    const value = args[name];
    if (value !== undefined && value !== null && value < 0) {
      throw new GraphQLError(`Argument ${name} on Connection must be non-negative`);
    }
  }
  let start = args.after ? decodeCursor(args.after) : 0; // 0-based index of the first candidate
  let end = args.before ? Math.min(decodeCursor(args.before) - 1, items.length) : items.length;
  start = Math.min(start, items.length);
  end = Math.max(end, start);
  if (args.last !== undefined && args.last !== null) {
    start = Math.max(start, end - Math.min(args.last, MAX_PAGE_SIZE));
  } else {
    const first = Math.min(args.first ?? MAX_PAGE_SIZE, MAX_PAGE_SIZE);
    end = Math.min(end, start + first);
  }
  const page = items.slice(start, end);
  const edges = page.map((node, index) => ({ cursor: encodeCursor(start + index + 1, quirks), node }));
  return {
    edges,
    nodes: page,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasNextPage: end < items.length,
      hasPreviousPage: start > 0,
    },
    totalCount: page.length,
  };
}
