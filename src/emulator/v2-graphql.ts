import { execute } from 'graphql';
import { estimateQueryComplexity } from '../directory/index.js';
import type { V2Context } from './v2-context.js';
import type { QueryPreparer } from './v2-documents.js';

export interface GraphqlOutcome {
  status: number;
  body: Record<string, unknown>;
  /** Complexity points to charge to the application's budget. */
  charge: number;
}

/** Charged for a request whose query cannot be parsed or validated: it still cost a request. */
export const INVALID_QUERY_CHARGE = 1;

const errorsOnly = (status: number, message: string, charge: number): GraphqlOutcome => ({
  status,
  body: { errors: [{ message }] },
  charge,
});

/**
 * POST /v2/api/graphql after authentication and the budget check: parses `{query,
 * variables?, operationName?}`, refuses queries above the per-query cap with the live
 * service's message, and executes the rest with graphql-js. GraphQL-level failures answer
 * 200 with standard `errors`, as the live service (graphql-ruby) does; only a body that is
 * not a GraphQL request at all answers 400.
 */
export async function runGraphql(
  rawBody: string,
  queries: QueryPreparer,
  context: V2Context,
  maxComplexity: number,
): Promise<GraphqlOutcome> {
  let request: unknown;
  try {
    request = JSON.parse(rawBody);
  } catch {
    return errorsOnly(
      400,
      'Request body must be JSON: {"query": "...", "variables": {...}}',
      INVALID_QUERY_CHARGE,
    );
  }
  if (
    typeof request !== 'object' ||
    request === null ||
    typeof (request as { query?: unknown }).query !== 'string'
  ) {
    return errorsOnly(400, 'Request body must have a "query" string', INVALID_QUERY_CHARGE);
  }
  const { query, variables, operationName } = request as {
    query: string;
    variables?: unknown;
    operationName?: unknown;
  };
  if (
    variables !== undefined &&
    variables !== null &&
    (typeof variables !== 'object' || Array.isArray(variables))
  ) {
    return errorsOnly(400, '"variables" must be an object', INVALID_QUERY_CHARGE);
  }
  const boundVariables = (variables ?? {}) as Record<string, unknown>;

  const prepared = queries.prepare(query);
  if ('errors' in prepared) return { status: 200, body: prepared, charge: INVALID_QUERY_CHARGE };
  const { document } = prepared;

  const complexity = estimateQueryComplexity(document, boundVariables);
  if (complexity > maxComplexity) {
    // Refused before execution and not charged: nothing was computed.
    return errorsOnly(
      200,
      `Query has complexity of ${complexity}, which exceeds max complexity of ${maxComplexity}`,
      0,
    );
  }
  const result = await execute({
    schema: queries.schema,
    document,
    variableValues: boundVariables,
    contextValue: context,
    operationName: typeof operationName === 'string' ? operationName : undefined,
  });
  const body: Record<string, unknown> = { data: result.data ?? null };
  if (result.errors) body['errors'] = result.errors.map((e) => e.toJSON());
  return { status: 200, body, charge: complexity };
}
