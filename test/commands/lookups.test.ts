import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { renderSlackReply } from '../../adapters/slack/render-reply.js';
import { COMMAND_SPECS } from '../../src/commands/index.js';
import type { DirectoryPost } from '../../src/directory/index.js';
import { type Harness, startHarness } from '../support/command-harness.js';

const usageOf = (name: string) => COMMAND_SPECS.find((s) => s.name === name)?.usage;
const DAY_MS = 86_400_000;

describe('lookups against the emulator', () => {
  let h: Harness;
  let post: DirectoryPost;
  let collectionSlug: string;

  beforeAll(async () => {
    h = await startHarness({ handler: { userRateLimit: { perMinute: 1000 } } });
    const page = await h.client.listPosts({ first: 20, order: 'NEWEST' });
    const withComments = page.nodes.find((p) => p.slug && (p.commentsCount ?? 0) > 0);
    if (!withComments) throw new Error('the seed has no commented post');
    post = withComments;
    const added = h.emulator.admin.addCollection({ name: 'Field Notes', featured: true });
    collectionSlug = new URL(String(added['collection_url'])).pathname.split('/').pop() ?? '';
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.emulator.admin.resetQuotas();
    // Every test looks up fresh: a minute and a bit later, the cache has forgotten.
    h.clock.advance(61_000);
  });

  describe('post', () => {
    it('answers by id, slug and link with the post as a shareable private message', async () => {
      for (const text of [
        `post ${post.id}`,
        `post ${post.slug}`,
        // The link as the directory gives it, bare and as Slack wraps a pasted link.
        `post ${post.url}`,
        `post <${post.url}|${post.slug}>`,
      ]) {
        const reply = await h.run(text);
        expect(reply.error).toBeUndefined();
        expect(reply.visibility).toBe('ephemeral');
        expect(reply.shareable).toBe(true);
        expect(reply.messages).toHaveLength(1);
        expect(reply.messages[0]?.kind).toBe('post');
        expect(reply.messages[0]?.title).toBe(post.name);
        expect(reply.messages[0]?.fields?.map((f) => f.name)).toContain('Votes');
      }
    });

    it('refuses a link to another site without looking it up, naming the directory to link to', async () => {
      const before = h.requests();
      for (const text of [
        `post https://evil.example/posts/${post.slug}`,
        `post <https://directory.example.evil.test/posts/${post.slug}|${post.slug}>`,
        `comments https://evil.example/posts/${post.id}`,
      ]) {
        const reply = await h.run(text);
        expect(reply.error?.code, text).toBe('command_usage');
        expect(reply.text, text).toMatch(
          /^(evil\.example|directory\.example\.evil\.test) is not the directory, so that link was not looked up\. Paste a link from www\.example-directory\.test, or give the post's id or slug\.$/,
        );
        expect(reply.messages).toEqual([]);
      }
      expect(h.requests()).toBe(before);
    });

    it('says which post does not exist', async () => {
      const reply = await h.run('post no-such-post-here');
      expect(reply.error?.code).toBe('upstream_not_found');
      expect(reply.text).toBe('No post with slug no-such-post-here.');
    });

    it('counts a second identical lookup, however it was typed, as free', async () => {
      await h.run(`post ${post.slug}`);
      const before = h.requests();
      const again = await h.run(
        `post   https://WWW.example-directory.test/posts/${post.slug?.toUpperCase()}`,
      );
      expect(again.messages[0]?.title).toBe(post.name);
      expect(h.requests()).toBe(before);
      expect(h.events.at(-1)).toEqual({ command: 'post', platform: 'slack', result: 'cached' });
      h.clock.advance(60_000);
      await h.run(`post ${post.slug}`);
      expect(h.requests()).toBe(before + 1);
    });
  });

  it('never calls a looked-up record new: posts, comments and a user’s comments are described as they are', async () => {
    const day = post.createdAt?.slice(0, 10) ?? '';
    const commenters = await h.client.listComments({ postId: post.id, perPage: 5 });
    const author = commenters.items.find((c) => c.user && !c.user.redacted)?.user?.username ?? '';
    for (const text of [`post ${post.id}`, `posts ${day}`, `comments ${post.id}`, `user ${author}`]) {
      const reply = await h.run(text);
      expect(reply.messages.length, text).toBeGreaterThan(0);
      for (const message of reply.messages) {
        for (const label of [message.title, message.footer, message.fallback])
          expect(label, text).not.toMatch(/\bnew\b/i);
      }
    }
    const comments = await h.run(`comments ${post.id}`);
    expect(comments.messages[0]?.title).toMatch(/^(Comment|Reply)\b/);
  });

  describe('posts', () => {
    it("lists a day's posts by votes, at most --top of them", async () => {
      const today = new Date(h.clock.now()).toISOString().slice(0, 10);
      // More votes than any seeded post of today (at most 1,200), so these lead the day.
      for (const votesCount of [5_000, 500_000, 50_000])
        h.emulator.admin.addPost({ votesCount, name: `Launch ${votesCount}` });
      const reply = await h.run('posts today --top 2');
      expect(reply.error).toBeUndefined();
      expect(reply.text).toBe(`Top 2 posts of ${today} (UTC) by votes`);
      expect(reply.messages.map((m) => m.title)).toEqual(['Launch 500000', 'Launch 50000']);
      const same = await h.run(`posts ${today} --top=2`);
      expect(same).toEqual(reply);
    });

    it('lists an earlier day, only posts of that day', async () => {
      const day = post.createdAt?.slice(0, 10) ?? '';
      const reply = await h.run(`posts ${day}`);
      expect(reply.messages.length).toBeGreaterThan(0);
      expect(reply.messages.length).toBeLessThanOrEqual(5);
      for (const message of reply.messages) expect(message.timestamp?.slice(0, 10)).toBe(day);
    });

    it('shows posts for today in a fresh emulator at any hour, as `posts` and the help example `posts today --top 3`', async () => {
      const day = Date.UTC(2026, 10, 23);
      // Just after midnight (a post at 00:00:00.000 counts), mid-morning, and the day's last second.
      for (const startMs of [day, day + 400, day + 5_000, day + 10 * 3_600_000, day + 86_399_999]) {
        const fresh = await startHarness({ startMs });
        try {
          const today = new Date(startMs).toISOString().slice(0, 10);
          const plain = await fresh.run('posts');
          expect(plain.text, `${startMs}`).toMatch(
            new RegExp(`^Top [1-5] posts? of ${today} \\(UTC\\) by votes$`),
          );
          expect(plain.messages.length).toBeGreaterThan(0);
          const top = await fresh.run('posts today --top 3');
          expect(top.text, `${startMs}`).toBe(`Top 3 posts of ${today} (UTC) by votes`);
          for (const message of top.messages) {
            expect(message.timestamp?.slice(0, 10)).toBe(today);
            // Seeded today, so never featured after the emulator's "now".
            expect(Date.parse(message.timestamp ?? '')).toBeLessThanOrEqual(startMs);
          }
        } finally {
          await fresh.close();
        }
      }
    });

    it('says so when a day has no posts', async () => {
      const future = new Date(h.clock.now() + 30 * DAY_MS).toISOString().slice(0, 10);
      const reply = await h.run(`posts ${future}`);
      expect(reply.error).toBeUndefined();
      expect(reply.text).toBe(`No posts on ${future} yet.`);
      expect(reply.shareable).toBe(false);
    });
  });

  describe('comments', () => {
    it('lists the latest comments on a post given by id or by slug', async () => {
      const byId = await h.run(`comments ${post.id} --limit 2`);
      expect(byId.error).toBeUndefined();
      expect(byId.messages.length).toBeGreaterThan(0);
      expect(byId.messages.length).toBeLessThanOrEqual(2);
      expect(byId.messages.every((m) => m.kind === 'comment')).toBe(true);
      const bySlug = await h.run(`comments ${post.slug} --limit 2`);
      expect(bySlug.messages.map((m) => m.text)).toEqual(byId.messages.map((m) => m.text));
      expect(bySlug.text).toContain(post.name);
    });

    it('says which post does not exist before asking for comments', async () => {
      const reply = await h.run('comments no-such-post-here');
      expect(reply.text).toBe('No post with slug no-such-post-here.');
    });
  });

  describe('collection and collections', () => {
    it('answers one collection by slug', async () => {
      const reply = await h.run(`collection ${collectionSlug}`);
      expect(reply.error).toBeUndefined();
      expect(reply.messages[0]?.kind).toBe('collection');
      expect(reply.messages[0]?.title).toBe('Field Notes');
    });

    it('says which collection does not exist', async () => {
      const reply = await h.run('collection nothing-like-this');
      expect(reply.text).toBe('No collection with slug nothing-like-this.');
    });

    it('lists featured collections, newest featured first', async () => {
      const reply = await h.run('collections featured');
      expect(reply.error).toBeUndefined();
      expect(reply.text).toBe('Latest featured collections');
      expect(reply.messages[0]?.title).toBe('Field Notes');
    });

    it("lists one user's collections with --by", async () => {
      const owner = h.emulator.admin.addCollection({ name: 'Mine only' });
      const username = String((owner['user'] as { username: string }).username);
      const reply = await h.run(`collections --by @${username}`);
      expect(reply.text).toBe(`Latest collections by ${username}`);
      expect(reply.messages.map((m) => m.title)).toContain('Mine only');
    });
  });

  describe('live', () => {
    it('lists upcoming dated events, soonest first', async () => {
      h.emulator.admin.scheduleLive({
        name: 'Soon on air',
        startsAt: new Date(h.clock.now() + 3_600_000).toISOString(),
      });
      const reply = await h.run('live');
      expect(reply.error).toBeUndefined();
      expect(reply.messages.length).toBeGreaterThan(0);
      expect(reply.messages.map((m) => m.title)).toContain('Soon on air');
      expect(reply.messages.every((m) => m.kind === 'live')).toBe(true);
    });

    it('lists a month, undated events, and on-camera ones only with --video', async () => {
      const month = new Date(h.clock.now() + 400 * DAY_MS).toISOString().slice(0, 7);
      h.emulator.admin.scheduleLive({
        name: 'Camera day',
        startsAt: `${month}-15T12:00:00.000Z`,
        liveVideo: true,
      });
      h.emulator.admin.scheduleLive({
        name: 'Audio day',
        startsAt: `${month}-16T12:00:00.000Z`,
        liveVideo: false,
      });
      const monthReply = await h.run(`live ${month}`);
      expect(monthReply.messages.map((m) => m.title)).toEqual(
        expect.arrayContaining(['Camera day', 'Audio day']),
      );
      const video = await h.run(`live ${month} --video`);
      expect(video.messages.map((m) => m.title)).toContain('Camera day');
      expect(video.messages.map((m) => m.title)).not.toContain('Audio day');
      const undated = await h.run('live undated');
      expect(undated.messages.length).toBeGreaterThan(0);
      expect(undated.messages.every((m) => m.timestamp === undefined)).toBe(true);
    });
  });

  describe('user', () => {
    it('shows the user, their collections and recent comments', async () => {
      const username = post.user?.username ?? '';
      const reply = await h.run(`user ${username}`);
      expect(reply.error).toBeUndefined();
      expect(reply.messages[0]?.kind).toBe('user');
      expect(reply.messages[0]?.title).toContain(username);
      expect(reply.messages.length).toBeLessThanOrEqual(7);
    });

    it('says which user does not exist', async () => {
      const reply = await h.run('user nobody_at_all');
      expect(reply.text).toBe('No user named nobody_at_all.');
    });
  });

  describe('bad input', () => {
    const cases: [string, string, string][] = [
      ['post', 'post', 'Missing <post>'],
      ['post', `post ${'x'.repeat(301)}`, 'too long'],
      ['post', 'post 42 --limit 3', 'Unknown flag --limit'],
      ['post', 'post "two words"', 'expects a post id, slug or directory link'],
      ['posts', 'posts --top abc', 'expects a whole number'],
      ['posts', 'posts --top', 'needs a value'],
      ['posts', 'posts --top 99', 'must be at most 10'],
      ['posts', 'posts 2025-1-1', '<day> expects today or a date'],
      ['posts', `posts ${'1'.repeat(11)}`, 'too long'],
      ['posts', 'posts --video', 'Unknown flag --video'],
      ['comments', 'comments', 'Missing <post>'],
      ['comments', 'comments 42 --limit x', 'expects a whole number'],
      ['comments', 'comments 42 --limit', 'needs a value'],
      ['comments', 'comments 42 --limt 3', 'Did you mean --limit?'],
      ['collection', 'collection', 'Missing <slug>'],
      ['collection', 'collection bad_slug!', 'expects a collection slug'],
      ['collection', `collection ${'a'.repeat(101)}`, 'too long'],
      ['collections', 'collections popular', 'expects the word "featured"'],
      ['collections', 'collections --by', 'needs a value'],
      ['collections', 'collections --by "two words"', 'expects a username'],
      ['collections', `collections --by ${'a'.repeat(52)}`, 'too long'],
      ['collections', 'collections --featured', 'Unknown flag --featured'],
      ['live', 'live tomorrow', '<when> expects upcoming, undated or a month'],
      ['live', 'live --video=perhaps', 'is a switch'],
      ['live', `live ${'2'.repeat(9)}`, 'too long'],
      ['live', 'live --camera', 'Unknown flag --camera'],
      ['user', 'user', 'Missing <username>'],
      ['user', 'user jane!', 'expects a username'],
      ['user', 'user jane --by x', 'Unknown flag --by'],
    ];
    it.each(cases)(
      '%s: "%s" is answered with the usage and the problem, without asking upstream',
      async (name, text, problem) => {
        const before = h.requests();
        const reply = await h.run(text);
        expect(reply.error).toMatchObject({ code: 'command_usage', usage: usageOf(name) });
        expect(reply.text).toContain(problem);
        expect(reply.visibility).toBe('ephemeral');
        expect(h.requests()).toBe(before);
      },
    );

    it('answers an unknown command with the closest one and its usage', async () => {
      const reply = await h.run('colections featured');
      expect(reply.text).toBe('Unknown command "colections". Did you mean "collections"?');
      expect(reply.error).toMatchObject({ code: 'command_usage', usage: usageOf('collections') });
    });
  });

  describe('hostile data', () => {
    it('keeps names plain text in messages and the renderer escapes them', async () => {
      const hostile = h.emulator.admin.addPost({
        name: '<!channel> @everyone *boom* <https://evil.example|click>',
        tagline: '<script>alert(1)</script> @here',
      });
      const reply = await h.run(`post ${hostile.v2_id}`);
      expect(reply.error).toBeUndefined();
      expect(reply.messages[0]?.title).toBe('<!channel> @everyone *boom* <https://evil.example|click>');
      const payload = JSON.stringify(renderSlackReply(reply));
      expect(payload).not.toContain('<!channel>');
      expect(payload).not.toContain('<https://evil.example|click>');
      expect(payload).not.toContain('<script>');
    });
  });
});
