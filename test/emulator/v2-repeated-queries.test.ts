import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

const HOUR = 3_600_000;
const NEWEST = '{ posts(first: 2, order: NEWEST) { edges { node { id name } } } }';

describe('the same GraphQL query asked again', () => {
  it('is charged every time and shows a post added in between', async () => {
    const h = await startHarness();
    const first = await h.graphql(NEWEST);
    const second = await h.graphql(NEWEST);
    expect(second.text).toBe(first.text);
    const spent = (reply: typeof first) => 6250 - Number(reply.headers['x-rate-limit-remaining']);
    expect(spent(second)).toBe(2 * spent(first));

    const added = h.emulator.admin.addPost({ name: 'Added in between' });
    const third = await h.graphql(NEWEST);
    expect(third.json().data.posts.edges[0].node).toEqual({ id: added.v2_id, name: 'Added in between' });
    expect(spent(third)).toBe(3 * spent(first));
  });

  it('ranks again as time passes, though nothing was added', async () => {
    const h = await startHarness();
    const since = new Date(h.clock.now() - 1000).toISOString();
    const ranked = `{ posts(postedAfter: "${since}") { edges { node { name } } } }`;
    h.emulator.admin.addPost({ name: 'older, many votes', votesCount: 100 });
    h.emulator.admin.advanceClock(10 * HOUR);
    h.emulator.admin.addPost({ name: 'newer, few votes', votesCount: 10 });
    const names = async () =>
      (await h.graphql(ranked)).json().data.posts.edges.map((e: { node: { name: string } }) => e.node.name);
    expect(await names()).toEqual(['newer, few votes', 'older, many votes']);
    // Age decays both; the one with ten times the votes comes first once the ages are alike.
    h.emulator.admin.advanceClock(1000 * HOUR);
    expect(await names()).toEqual(['older, many votes', 'newer, few votes']);
  });

  it('is broken only once by a bad-record fault', async () => {
    const h = await startHarness();
    const intact = await h.graphql(NEWEST);
    h.emulator.admin.injectFault({ route: '/v2/api/graphql', count: 1, kind: 'bad-record' });
    expect((await h.graphql(NEWEST)).json().data.posts.edges[0].node.id).toBe('not-an-id');
    expect((await h.graphql(NEWEST)).text).toBe(intact.text);
  });

  it('answers the same errors each time for an invalid query, even after a fault broke one', async () => {
    const h = await startHarness();
    const invalid = '{ posts { edges { node { goals } } } }';
    const first = await h.graphql(invalid);
    h.emulator.admin.injectFault({ route: '/v2/api/graphql', count: 1, kind: 'bad-record' });
    await h.graphql(invalid);
    // A change in between, so the answer is worked out again rather than replayed.
    h.emulator.admin.addPost({});
    expect((await h.graphql(invalid)).text).toBe(first.text);
    expect(first.json().errors[0].message).toContain('goals');
  });
});
