import { afterEach, describe, expect, it } from 'vitest';
import { linkTarget, type PreviewEvent } from '../../src/commands/index.js';
import { EMULATOR_WEB_URL } from '../../src/emulator/index.js';
import type { LinkPreviewRequest } from '../../src/ports/index.js';
import { type Harness, type HarnessOptions, startHarness } from '../support/command-harness.js';

const SITE = EMULATOR_WEB_URL;

describe('which pages of the directory name a record', () => {
  it.each([
    ['/posts/atlas-maps', { kind: 'post', ref: { slug: 'atlas-maps' } }],
    ['/posts/Atlas-Maps/?comment=4', { kind: 'post', ref: { slug: 'atlas-maps' } }],
    ['/posts/42', { kind: 'post', ref: { id: '42' } }],
    ['/@jane_doe', { kind: 'user', username: 'jane_doe' }],
    ['/@jane_doe/collections/field-notes', { kind: 'collection', slug: 'field-notes' }],
    ['/live/launch-ama', { kind: 'live', slug: 'launch-ama' }],
  ])('%s', (path, target) => {
    expect(linkTarget(new URL(`${SITE}${path}`))).toEqual(target);
  });

  it.each([
    '/',
    '/posts',
    '/posts/atlas/reviews',
    '/topics/maps',
    '/@',
    '/@jane_doe/followers',
    '/@jane_doe/collections',
    '/live',
    '/notifications/3',
    '/posts/%3Cscript%3E',
    `/posts/${'a'.repeat(101)}`,
  ])('%s names none', (path) => {
    expect(linkTarget(new URL(`${SITE}${path}`))).toBeUndefined();
  });
});

describe('link previews through the command handler', () => {
  let h: Harness;
  let events: PreviewEvent[];

  async function start(options: HarnessOptions['handler'] = {}) {
    events = [];
    h = await startHarness({
      handler: { userRateLimit: { perMinute: 1000 }, ...options, onPreview: (event) => events.push(event) },
    });
    return h;
  }
  afterEach(async () => {
    await h.close();
  });

  const preview = (url: string, userId = 'U1') => {
    const request: LinkPreviewRequest = { platform: 'slack', userId, workspaceId: 'T1', url };
    return h.handler.preview?.(request);
  };

  it('shares its cache with /directory post and collection, whichever came first', async () => {
    await start();
    const added = h.emulator.admin.addPost({ name: 'Atlas Maps' });
    const slug = String(added['slug']);
    const collection = h.emulator.admin.addCollection({ name: 'Field Notes' });
    const collectionSlug = new URL(String(collection['collection_url'])).pathname.split('/').pop() ?? '';

    await h.run(`post ${slug}`);
    let before = h.requests();
    expect(await preview(`${SITE}/posts/${slug}`)).toMatchObject({
      status: 'found',
      message: { title: 'Atlas Maps' },
    });
    expect(h.requests()).toBe(before);

    expect(await preview(String(collection['collection_url']))).toMatchObject({ status: 'found' });
    before = h.requests();
    const reply = await h.run(`collection ${collectionSlug}`);
    expect(reply.messages[0]?.title).toBe('Field Notes');
    expect(h.requests()).toBe(before);
    expect(events).toEqual([
      { platform: 'slack', result: 'found', cached: true },
      { platform: 'slack', result: 'found', cached: false },
    ]);
  });

  it("previews a user with the profile card alone: one directory request, not the command's three", async () => {
    await start();
    const collection = h.emulator.admin.addCollection({ name: 'Field Notes' });
    const username = /\/@([^/]+)\//.exec(String(collection['collection_url']))?.[1] ?? '';
    const before = h.requests();
    const found = await preview(`${SITE}/@${username}`);
    expect(found).toMatchObject({ status: 'found', message: { kind: 'user' } });
    expect(h.requests()).toBe(before + 1);
  });

  it('counts a removed or unknown record as not found, and remembers that too', async () => {
    await start();
    expect(await preview(`${SITE}/live/no-such-event`)).toEqual({ status: 'none', reason: 'not_found' });
    const before = h.requests();
    expect(await preview(`${SITE}/live/no-such-event`)).toEqual({ status: 'none', reason: 'not_found' });
    expect(h.requests()).toBe(before);
    expect(events.map((e) => [e.result, e.cached])).toEqual([
      ['not_found', false],
      ['not_found', true],
    ]);
  });

  it("spends the paster's lookup allowance like a command: past it, no preview and no request", async () => {
    await start({ userRateLimit: { perMinute: 1 } });
    const first = h.emulator.admin.addPost({ name: 'One' });
    const second = h.emulator.admin.addPost({ name: 'Two' });
    expect(await preview(`${SITE}/posts/${String(first['slug'])}`)).toMatchObject({ status: 'found' });
    const before = h.requests();
    expect(await preview(`${SITE}/posts/${String(second['slug'])}`)).toEqual({
      status: 'none',
      reason: 'rate_limited',
    });
    expect(h.requests()).toBe(before);
    // Someone else still gets theirs.
    expect(await preview(`${SITE}/posts/${String(second['slug'])}`, 'U2')).toMatchObject({ status: 'found' });
  });

  it('answers failed when the directory does not, and does not keep the failure', async () => {
    await start();
    const added = h.emulator.admin.addPost({ name: 'Atlas Maps' });
    const url = `${SITE}/posts/${String(added['slug'])}`;
    h.emulator.admin.injectFault({ route: '/v2/api/graphql', count: 5, kind: 'status', status: 503 });
    expect(await preview(url)).toEqual({ status: 'none', reason: 'failed' });
    h.emulator.admin.clearFaults();
    expect(await preview(url)).toMatchObject({ status: 'found' });
  });
});
