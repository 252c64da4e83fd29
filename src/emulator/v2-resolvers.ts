import {
  buildSchema,
  GraphQLError,
  type GraphQLFieldResolver,
  GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLSchema,
  Kind,
} from 'graphql';
import { formatV2DateTime } from './time-format.js';
import type { Resolver, V2Context } from './v2-context.js';
import { queryResolvers } from './v2-query-resolvers.js';
import { V2_SCHEMA_SDL } from './v2-schema.js';
import {
  collectionResolvers,
  commentResolvers,
  postResolvers,
  topicResolvers,
  userResolvers,
} from './v2-type-resolvers.js';

type ResolverMap = Record<string, Record<string, Resolver<never>>>;

const RESOLVERS: ResolverMap = {
  Query: queryResolvers,
  Post: postResolvers,
  Collection: collectionResolvers,
  Comment: commentResolvers,
  Topic: topicResolvers,
  User: userResolvers,
};

/** DateTime: epoch ms inside, UTC `Z` without milliseconds outside. */
function configureDateTime(scalar: GraphQLScalarType): void {
  const parse = (value: unknown): number => {
    const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : Number.NaN;
    if (Number.isNaN(ms)) throw new GraphQLError(`DateTime cannot represent ${JSON.stringify(value)}`);
    return ms;
  };
  scalar.serialize = (value: unknown) => {
    if (typeof value !== 'number') throw new GraphQLError('DateTime must be epoch milliseconds internally');
    return formatV2DateTime(value);
  };
  scalar.parseValue = parse;
  scalar.parseLiteral = (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string');
    return parse(ast.value);
  };
}

let shared: GraphQLSchema | undefined;

/**
 * The executable V2 schema, built once per process: resolvers read the store from the request's
 * context, so every emulator can share it, and building it (parse, then graphql-js validating
 * the schema on its first query) cost about as much as seeding a whole emulator's store.
 */
export function sharedV2Schema(): GraphQLSchema {
  shared ??= createV2Schema();
  return shared;
}

/** Builds the executable V2 schema (SDL plus resolvers). */
function createV2Schema(): GraphQLSchema {
  const schema = buildSchema(V2_SCHEMA_SDL);
  const dateTime = schema.getType('DateTime');
  if (dateTime instanceof GraphQLScalarType) configureDateTime(dateTime);
  for (const [typeName, fields] of Object.entries(RESOLVERS)) {
    const type = schema.getType(typeName);
    if (!(type instanceof GraphQLObjectType)) throw new Error(`schema has no object type ${typeName}`);
    const defined = type.getFields();
    for (const [fieldName, resolve] of Object.entries(fields)) {
      const field = defined[fieldName];
      if (!field) throw new Error(`schema has no field ${typeName}.${fieldName}`);
      field.resolve = resolve as unknown as GraphQLFieldResolver<unknown, V2Context>;
    }
  }
  return schema;
}
