import { describe, expect, it } from 'vitest';
import { composeRawRecord, guessRecordKind, unwrapRecords } from '../../src/cli/raw-record.js';
import {
  rawV1Collection,
  rawV1Comment,
  rawV1LiveEvent,
  rawV1Notification,
  rawV2Post,
} from '../fixtures/render-cli-records.js';

describe('guessRecordKind', () => {
  it.each([
    ['comment', rawV1Comment, 'it has "body"'],
    ['live', rawV1LiveEvent, 'it has "starts_at"'],
    ['collection', rawV1Collection, 'it has "collection_url"'],
    ['notification', rawV1Notification, 'it has "sentence"'],
    ['post', rawV2Post, 'it has "votesCount"'],
    ['user', { __typename: 'User', id: '1', name: 'Ada' }, 'its __typename is "User"'],
  ])('recognises a %s', (kind, record, reason) => {
    expect(guessRecordKind(record)).toEqual({ kind, reason });
  });

  it('gives up on a record with nothing distinctive', () => {
    expect(guessRecordKind({ id: 1, name: 'x' })).toBeUndefined();
    expect(guessRecordKind([1, 2])).toBeUndefined();
  });
});

describe('unwrapRecords', () => {
  it('unwraps a GraphQL answer, a one-record V1 list and a named wrapper', () => {
    expect(unwrapRecords({ data: { post: rawV2Post } })).toEqual({
      ok: true,
      records: [{ record: rawV2Post, kind: 'post' }],
    });
    expect(unwrapRecords({ comments: [rawV1Comment] })).toEqual({
      ok: true,
      records: [{ record: rawV1Comment, kind: 'comment' }],
    });
    expect(unwrapRecords({ live_event: rawV1LiveEvent })).toEqual({
      ok: true,
      records: [{ record: rawV1LiveEvent, kind: 'live' }],
    });
  });

  it('takes every record out of a V2 connection (edges or nodes, with or without data), a V1 list or an array', () => {
    const second = { ...rawV2Post, id: '2' };
    const posts = [
      { record: rawV2Post, kind: 'post' },
      { record: second, kind: 'post' },
    ];
    const edges = { edges: [{ node: rawV2Post }, { node: second }], pageInfo: { hasNextPage: false } };
    expect(unwrapRecords({ data: { posts: edges } })).toEqual({ ok: true, records: posts });
    expect(unwrapRecords({ posts: edges })).toEqual({ ok: true, records: posts });
    expect(unwrapRecords({ data: { posts: { nodes: [rawV2Post, second] } } })).toEqual({
      ok: true,
      records: posts,
    });
    expect(unwrapRecords({ comments: [rawV1Comment, rawV1Comment] })).toEqual({
      ok: true,
      records: [
        { record: rawV1Comment, kind: 'comment' },
        { record: rawV1Comment, kind: 'comment' },
      ],
    });
    expect(unwrapRecords([rawV1Comment, rawV1LiveEvent])).toEqual({
      ok: true,
      records: [{ record: rawV1Comment }, { record: rawV1LiveEvent }],
    });
  });

  it('leaves a bare record alone', () => {
    expect(unwrapRecords(rawV1Comment)).toEqual({ ok: true, records: [{ record: rawV1Comment }] });
  });

  it('reports an empty list and a GraphQL answer that holds only errors', () => {
    expect(unwrapRecords({ comments: [] })).toEqual({ ok: false, problem: 'the list holds no records' });
    expect(unwrapRecords({ data: null, errors: [{ message: 'Field "pots" does not exist' }] })).toEqual({
      ok: false,
      problem: 'the GraphQL answer holds no data, only the error "Field "pots" does not exist"',
    });
  });
});

describe('composeRawRecord', () => {
  it('reads a V1 comment with the V1 schema and composes it with a redacted commenter', () => {
    const result = composeRawRecord('comment', rawV1Comment);
    expect(result).toMatchObject({ ok: true, source: 'V1 comment' });
    if (!result.ok) return;
    expect(result.message.author).toEqual({ name: 'someone' });
    expect(result.message.timestamp).toBe('2017-03-09T08:29:11.627Z');
  });

  it('reads a V2 post node with the V2 schema', () => {
    const result = composeRawRecord('post', rawV2Post);
    expect(result).toMatchObject({ ok: true, source: 'V2 post', message: { title: 'Analytical Engine' } });
  });

  it('reads a V2 collection by its camelCase fields', () => {
    const result = composeRawRecord('collection', { id: '5', name: 'Tools', followersCount: 3 });
    expect(result).toMatchObject({ ok: true, source: 'V2 collection' });
  });

  it('names each failing path in plain words', () => {
    const { body: _body, ...noBody } = rawV1Comment;
    const result = composeRawRecord('comment', { ...noBody, id: -5, created_at: 'yesterday' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      'id: -5 is not an accepted value',
      'body: missing',
      'created_at: not an ISO 8601 timestamp: yesterday',
    ]);
  });

  it('says what it got instead of an object', () => {
    expect(composeRawRecord('post', 'hello')).toMatchObject({
      ok: false,
      problems: ['(the record): expected a JSON object, got "hello"'],
    });
  });

  it('says what type it got for a wrongly typed field', () => {
    const result = composeRawRecord('post', { ...rawV2Post, name: 42 });
    expect(result).toMatchObject({ ok: false, problems: ['name: expected a string, got 42'] });
  });
});
