import { type DocumentNode, type GraphQLFormattedError, type GraphQLSchema, parse, validate } from 'graphql';
import { messageOf } from '../errors.js';

/** A query text checked against the schema: its document, or the GraphQL errors to answer. */
export type PreparedQuery = { document: DocumentNode } | { errors: GraphQLFormattedError[] };

/** The schema queries run against, and its checked documents by query text. */
export interface QueryPreparer {
  readonly schema: GraphQLSchema;
  prepare(query: string): PreparedQuery;
}

/** Distinct query texts kept: clients send a handful of documents, with different variables. */
const MAX_QUERIES = 256;

/**
 * Parses and validates each query text once. graphql-js's `parse` and `validate` cost more
 * than executing a poll's page, and a client sends the same few documents over and over; the
 * outcome depends on the text and the schema only. Least recently used texts leave first.
 */
export function createQueryPreparer(schema: GraphQLSchema, max = MAX_QUERIES): QueryPreparer {
  const prepared = new Map<string, PreparedQuery>();
  const prepare = (query: string): PreparedQuery => {
    const hit = prepared.get(query);
    if (hit) {
      prepared.delete(query);
      prepared.set(query, hit);
      return 'errors' in hit ? { errors: structuredClone(hit.errors) } : hit;
    }
    const fresh = prepareQuery(schema, query);
    prepared.set(query, fresh);
    if (prepared.size > max) prepared.delete(prepared.keys().next().value as string);
    // Error lists are copied out: a bad-record fault edits the body it is given.
    return 'errors' in fresh ? { errors: structuredClone(fresh.errors) } : fresh;
  };
  return { schema, prepare };
}

function prepareQuery(schema: GraphQLSchema, query: string): PreparedQuery {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    return { errors: [{ message: messageOf(error) }] };
  }
  const validationErrors = validate(schema, document);
  if (validationErrors.length > 0) return { errors: validationErrors.map((e) => e.toJSON()) };
  return { document };
}
