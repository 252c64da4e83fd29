import { describe, expect, it } from 'vitest';
import { startHarness } from '../support/emulator-harness.js';

describe('GET /v1/collections', () => {
  it('renders every spec field with a tracking collection_url and the creator nested', async () => {
    const h = await startHarness();
    const { collections } = (await h.get('/v1/collections?per_page=50')).json();
    expect(collections).toHaveLength(50);
    const c = collections[0];
    for (const key of [
      'id',
      'name',
      'title',
      'created_at',
      'updated_at',
      'featured_at',
      'subscriber_count',
      'background_image_url',
      'category_id',
      'collection_url',
      'color',
      'posts_count',
      'user',
    ]) {
      expect(c).toHaveProperty(key);
    }
    expect(c.collection_url).toMatch(/\?utm_campaign=.*utm_medium=api/);
    expect(collections.some((x: { background_image_url: unknown }) => x.background_image_url === null)).toBe(
      true,
    );
    expect(collections.some((x: { category_id: unknown }) => x.category_id === null)).toBe(true);
  });

  it('lists only featured collections with search[featured]=true, and all of them by default', async () => {
    const h = await startHarness();
    const featured = (await h.get('/v1/collections?search[featured]=true&per_page=50')).json().collections;
    expect(featured.length).toBeGreaterThan(10);
    expect(featured.every((c: { featured_at: unknown }) => c.featured_at !== null)).toBe(true);
    const all = (await h.get('/v1/collections?per_page=50')).json().collections;
    expect(all.some((c: { featured_at: unknown }) => c.featured_at === null)).toBe(true);
  });

  it('shows a newly featured collection first when sorted by updated_at', async () => {
    const h = await startHarness();
    const unfeatured = (await h.get('/v1/collections?per_page=50&order=asc'))
      .json()
      .collections.find((c: { featured_at: unknown }) => c.featured_at === null);
    h.clock.advance(60_000);
    const featured = h.emulator.admin.featureCollection(unfeatured.id);
    expect(featured.featured_at).not.toBeNull();
    const top = (await h.get('/v1/collections?search[featured]=true&sort_by=updated_at&per_page=1')).json();
    expect(top.collections[0].id).toBe(unfeatured.id);
  });

  it('filters by slug, creator username and subscriber', async () => {
    const h = await startHarness();
    const sample = (await h.get('/v1/collections?per_page=1')).json().collections[0];
    const slug = new URL(sample.collection_url).pathname.split('/').at(-1);
    const bySlug = (await h.get(`/v1/collections?search[slug]=${slug}`)).json().collections;
    expect(bySlug.map((c: { id: number }) => c.id)).toEqual([sample.id]);
    const byUser = (
      await h.get(`/v1/collections?search[user_username]=${sample.user.username}&per_page=50`)
    ).json().collections;
    expect(byUser.length).toBeGreaterThan(0);
    expect(
      byUser.every((c: { user: { username: string } }) => c.user.username === sample.user.username),
    ).toBe(true);
    const bySubscriber = await h.get('/v1/collections?search[subscriber_id]=2&per_page=50');
    expect(bySubscriber.status).toBe(200);
    const none = (await h.get('/v1/collections?search[slug]=no-such-collection')).json();
    expect(none).toEqual({ collections: [] });
  });

  it('pages by id cursors like comments do', async () => {
    const h = await startHarness();
    const page = (await h.get('/v1/collections?older=50&per_page=3')).json().collections;
    expect(page.map((c: { id: number }) => c.id)).toEqual([49, 48, 47]);
  });

  it('rejects a non-boolean search[featured] and a malformed subscriber id', async () => {
    const h = await startHarness();
    expect((await h.get('/v1/collections?search[featured]=yes')).json().error_description).toContain(
      'search[featured]',
    );
    expect((await h.get('/v1/collections?search[subscriber_id]=1.5')).status).toBe(400);
  });
});
