import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { estimateQueryComplexity } from '../../src/directory/query-complexity.js';
import * as queries from '../../src/directory/v2-queries.js';
import { V2_SCHEMA_SDL } from '../../src/emulator/v2-schema.js';

// The emulator's schema is the 2025 reference's subset, so a query valid here is valid live.
const schema = buildSchema(V2_SCHEMA_SDL);

describe('V2 queries', () => {
  it.each(Object.entries(queries))('%s is valid against the 2025 reference schema', (_name, query) => {
    expect(validate(schema, parse(query)).map((error) => error.message)).toEqual([]);
  });

  it('keeps a full page of 20 posts under the per-query complexity cap of 1000', () => {
    expect(estimateQueryComplexity(queries.POSTS_QUERY, { first: 20 })).toBeLessThan(1000);
  });

  it('costs a page of posts in proportion to its size', () => {
    const ten = estimateQueryComplexity(queries.POSTS_QUERY, { first: 10 });
    const twenty = estimateQueryComplexity(queries.POSTS_QUERY, { first: 20 });
    expect(twenty - 1).toBe((ten - 1) * 2);
  });
});

describe('estimateQueryComplexity', () => {
  it('charges one per field and multiplies a connection by its page size', () => {
    expect(estimateQueryComplexity('{ posts(first: 3) { edges { node { id name } } } }')).toBe(
      1 + 3 * (1 + 1 + 2),
    );
  });

  it('charges a connection without first at the default page size', () => {
    expect(estimateQueryComplexity('{ posts { nodes { id } } }')).toBe(1 + 20 * 2);
  });

  it('reads the page size from a variable', () => {
    expect(estimateQueryComplexity('query($n: Int) { posts(first: $n) { nodes { id } } }', { n: 2 })).toBe(5);
  });
});
