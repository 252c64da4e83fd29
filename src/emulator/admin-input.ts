import { ApiError } from './api-error.js';

type FieldKind = 'int' | 'int?' | 'string' | 'string?' | 'bool' | 'int[]';

/** The fields each admin "add" accepts; anything else is a typo worth a 400. */
export const ADMIN_FIELDS = {
  comment: {
    postId: 'int',
    parentCommentId: 'int?',
    userId: 'int',
    body: 'string',
    sticky: 'bool',
    votes: 'int',
  },
  post: {
    name: 'string',
    tagline: 'string',
    votesCount: 'int',
    featured: 'bool',
    userId: 'int',
    topicIds: 'int[]',
    description: 'string?',
  },
  collection: { name: 'string', title: 'string', featured: 'bool', userId: 'int', postIds: 'int[]' },
  live: { name: 'string', tagline: 'string', startsAt: 'string?', liveVideo: 'bool' },
  notification: { type: 'string', referenceId: 'int', sentence: 'string', fromUserId: 'int?' },
} as const satisfies Record<string, Record<string, FieldKind>>;

function fits(kind: FieldKind, value: unknown): boolean {
  const isInt = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  switch (kind) {
    case 'int':
      return isInt(value);
    case 'int?':
      return value === null || isInt(value);
    case 'string':
      return typeof value === 'string';
    case 'string?':
      return value === null || typeof value === 'string';
    case 'bool':
      return typeof value === 'boolean';
    case 'int[]':
      return Array.isArray(value) && value.every(isInt);
  }
}

/**
 * Checks an admin JSON body against the fields a record kind accepts and returns it typed;
 * an unknown field or a wrong type answers 400 naming the field.
 */
export function checkAdminInput<K extends keyof typeof ADMIN_FIELDS>(
  kind: K,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const fields: Record<string, FieldKind> = ADMIN_FIELDS[kind];
  for (const [name, value] of Object.entries(body)) {
    const expected = fields[name];
    if (expected === undefined) {
      throw new ApiError(
        400,
        'invalid_parameter',
        `${name} is not a ${kind} field (known: ${Object.keys(fields).join(', ')})`,
      );
    }
    if (!fits(expected, value)) throw new ApiError(400, 'invalid_parameter', `${name} must be ${expected}`);
  }
  return body;
}
