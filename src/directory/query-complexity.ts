import { type DocumentNode, Kind, parse, type SelectionSetNode, type ValueNode } from 'graphql';

/** Page size assumed for a connection field queried without `first`/`last` (the service's default). */
export const DEFAULT_CONNECTION_SIZE = 20;

const PAGE_ARGUMENTS = new Set(['first', 'last']);

/**
 * Estimates a GraphQL query's complexity the way the directory charges it: every requested
 * field costs 1, and a field that takes a page size (`first`/`last`) multiplies the cost of
 * its selection by that size. Both the client (to budget before sending) and the emulator
 * (to charge) use this one rule, so they cannot drift apart.
 */
export function estimateQueryComplexity(
  query: string | DocumentNode,
  variables: Record<string, unknown> = {},
): number {
  const document = typeof query === 'string' ? parse(query) : query;
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition.selectionSet);
    }
  }
  let total = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      total += selectionCost(definition.selectionSet, fragments, variables, new Set());
    }
  }
  return total;
}

function selectionCost(
  selectionSet: SelectionSetNode,
  fragments: Map<string, SelectionSetNode>,
  variables: Record<string, unknown>,
  visiting: Set<string>,
): number {
  let cost = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (selection.name.value.startsWith('__')) continue;
      const childCost = selection.selectionSet
        ? selectionCost(selection.selectionSet, fragments, variables, visiting)
        : 0;
      const multiplier = selection.selectionSet
        ? pageSize(selection.arguments ?? [], variables, isConnection(selection.selectionSet))
        : 1;
      cost += 1 + childCost * multiplier;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      cost += selectionCost(selection.selectionSet, fragments, variables, visiting);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      // A fragment cycle is invalid GraphQL; validation rejects it, so cost it once.
      if (!fragment || visiting.has(name)) continue;
      visiting.add(name);
      cost += selectionCost(fragment, fragments, variables, visiting);
      visiting.delete(name);
    }
  }
  return cost;
}

/** A Relay connection selects `edges` or `nodes`; its page size multiplies what is below. */
function isConnection(selectionSet: SelectionSetNode): boolean {
  return selectionSet.selections.some(
    (s) => s.kind === Kind.FIELD && (s.name.value === 'edges' || s.name.value === 'nodes'),
  );
}

function pageSize(
  args: readonly { name: { value: string }; value: ValueNode }[],
  variables: Record<string, unknown>,
  connection: boolean,
): number {
  for (const argument of args) {
    if (!PAGE_ARGUMENTS.has(argument.name.value)) continue;
    const value = resolveInt(argument.value, variables);
    if (value !== undefined) return Math.max(value, 1);
  }
  // A connection without an explicit size is charged at the default page size.
  return connection ? DEFAULT_CONNECTION_SIZE : 1;
}

function resolveInt(value: ValueNode, variables: Record<string, unknown>): number | undefined {
  if (value.kind === Kind.INT) return Number.parseInt(value.value, 10);
  if (value.kind === Kind.VARIABLE) {
    const bound = variables[value.name.value];
    return typeof bound === 'number' && Number.isInteger(bound) ? bound : undefined;
  }
  return undefined;
}
