import { describe, expect, it } from 'vitest';
import type { DirectoryUser } from '../../src/directory/types.js';
import {
  composeCollectionMessage,
  composeCommentMessage,
  composeLiveEventMessage,
  composeNotificationMessage,
  composePostMessage,
  composeUserMessage,
  FALLBACK_MAX,
  KIND_COLORS,
} from '../../src/messages/index.js';
import type { Message } from '../../src/ports/index.js';
import {
  ada,
  collection,
  comment,
  HOSTILE,
  liveEvent,
  notification,
  post,
  profile,
  redacted,
} from '../fixtures/parsed-records.js';

/** Every string anywhere in a message, to assert nothing reads "undefined" or links junk. */
function allText(message: Message): string {
  return JSON.stringify(message);
}

function field(message: Message, name: string): string | undefined {
  return message.fields?.find((f) => f.name === name)?.value;
}

const strayUser: DirectoryUser = {
  id: '5',
  name: '[REDACTED]',
  username: '[REDACTED]',
  profileUrl: 'https://www.example-directory.test/@[REDACTED]',
  redacted: false,
};

describe('composePostMessage', () => {
  it('shows name, tagline, counts, makers and topics of a realistic post', () => {
    const message = composePostMessage(post);
    expect(message).toMatchObject({
      kind: 'post',
      title: 'Analytical Engine',
      text: 'Computes Bernoulli numbers',
      url: 'https://www.example-directory.test/posts/analytical-engine',
      thumbnailUrl: 'https://images.example.test/thumb.png',
      author: { name: 'Ada Lovelace', url: 'https://www.example-directory.test/@ada' },
      timestamp: '2017-03-08T08:01:00.000Z',
      color: KIND_COLORS.post,
      footer: 'Directory · new post',
      fallback: 'New post: Analytical Engine — Computes Bernoulli numbers',
    });
    expect(field(message, 'Votes')).toBe('1,340');
    expect(field(message, 'Comments')).toBe('12');
    expect(field(message, 'Makers')).toBe('Ada Lovelace and 1 other');
    expect(field(message, 'Topics')).toBe('Developer Tools, Mathematics');
    expect(field(message, 'Launched')).toBe('8 Mar 2017');
  });

  it('leaves out every absent optional value instead of writing "undefined"', () => {
    const message = composePostMessage({ id: '1', name: 'Bare', makers: [], topics: [] });
    expect(message).toEqual({
      kind: 'post',
      title: 'Bare',
      color: KIND_COLORS.post,
      footer: 'Directory · new post',
      fallback: 'New post: Bare',
      actions: [
        { kind: 'command', label: 'Comments', verb: 'comments', target: '1', command: 'comments 1' },
        {
          kind: 'command',
          label: 'Follow comments',
          verb: 'follow',
          target: '1',
          command: 'subscribe comments --post 1',
        },
      ],
    });
    expect(allText(message)).not.toMatch(/undefined|NaN|null/);
  });

  it('puts Comments, Follow comments and Open under a post in a feed, by post id, and none on a lookup', () => {
    const message = composePostMessage(post);
    expect(
      message.actions?.map((a) => (a.kind === 'link' ? `${a.label} ${a.url}` : `${a.label}: ${a.command}`)),
    ).toEqual([
      `Comments: comments ${post.id}`,
      `Follow comments: subscribe comments --post ${post.id}`,
      `Open ${message.url}`,
    ]);
    expect(composePostMessage(post, { occasion: 'lookup' }).actions).toBeUndefined();
  });

  it('offers no command button for a post whose id could carry extra arguments', () => {
    const message = composePostMessage({ ...post, id: '1 --keyword x' });
    expect(message.actions?.filter((a) => a.kind === 'command')).toEqual([]);
  });

  it('says "featured post" and uses the featured time for a featured post', () => {
    const message = composePostMessage({ ...post, featuredAt: '2017-03-08T16:00:00.000Z' });
    expect(message.footer).toBe('Directory · featured post');
    expect(message.timestamp).toBe('2017-03-08T16:00:00.000Z');
  });

  it('never links a post url that is not an absolute http(s) URL', () => {
    const message = composePostMessage({
      ...post,
      url: '[REDACTED]',
      thumbnailUrl: 'javascript:alert(1)',
    });
    expect(message.url).toBeUndefined();
    expect(message.thumbnailUrl).toBeUndefined();
  });

  it('counts only redacted makers as people, never naming them', () => {
    const message = composePostMessage({ ...post, makers: [redacted, redacted] });
    expect(field(message, 'Makers')).toBe('2 people');
  });

  it('does not call a looked-up post new, whatever its age', () => {
    const message = composePostMessage(post, { occasion: 'lookup' });
    expect(message.footer).toBe('Directory · post');
    expect(message.fallback).toBe('Post: Analytical Engine — Computes Bernoulli numbers');
    expect(
      composePostMessage({ ...post, featuredAt: '2017-03-08T09:00:00.000Z' }, { occasion: 'lookup' }).footer,
    ).toBe('Directory · featured post');
  });

  it('collapses a multi-line name into one line for the title', () => {
    const message = composePostMessage({ ...post, name: 'Two\nlines\there' });
    expect(message.title).toBe('Two lines here');
  });
});

describe('composeCommentMessage', () => {
  it('names the commenter and the post in the title, fallback and author', () => {
    const message = composeCommentMessage(comment);
    expect(message).toMatchObject({
      kind: 'comment',
      title: 'New comment on Analytical Engine',
      text: 'Congrats on the launch!',
      url: comment.url,
      author: {
        name: 'Ada Lovelace',
        url: 'https://www.example-directory.test/@ada',
        iconUrl: 'https://images.example.test/ada/96.png',
      },
      timestamp: '2017-03-09T08:29:11.627Z',
      color: KIND_COLORS.comment,
      footer: 'Directory · new comment',
      fallback: 'New comment by Ada Lovelace on "Analytical Engine": Congrats on the launch!',
    });
    expect(field(message, 'Votes')).toBe('3');
    expect(field(message, 'Replies')).toBe('2');
    expect(field(message, 'Pinned')).toBeUndefined();
  });

  it('shows a redacted commenter as "someone" with no link or avatar', () => {
    const message = composeCommentMessage({ ...comment, user: redacted });
    expect(message.author).toEqual({ name: 'someone' });
    expect(message.fallback).toMatch(/^New comment by someone on /);
    expect(allText(message)).not.toContain('REDACTED');
  });

  it('shows a stray "[REDACTED]" user that slipped past the schema as "someone" too', () => {
    const message = composeCommentMessage({ ...comment, user: strayUser });
    expect(message.author).toEqual({ name: 'someone' });
    expect(allText(message)).not.toContain('REDACTED');
  });

  it('shows a comment without a user or post as a bare "New comment by someone"', () => {
    const message = composeCommentMessage({ id: '1', body: 'hello', createdAt: '2020-01-01T00:00:00.000Z' });
    expect(message.title).toBe('New comment');
    expect(message.author).toEqual({ name: 'someone' });
    expect(message.fallback).toBe('New comment by someone: hello');
    expect(message.url).toBeUndefined();
    expect(message.fields).toBeUndefined();
  });

  it('calls a comment with a parent a reply', () => {
    const message = composeCommentMessage({ ...comment, parentCommentId: '400000' });
    expect(message.title).toBe('New reply on Analytical Engine');
    expect(message.footer).toBe('Directory · new reply');
  });

  it('does not call a looked-up comment or reply new', () => {
    const looked = composeCommentMessage(comment, { occasion: 'lookup' });
    expect(looked).toMatchObject({
      title: 'Comment on Analytical Engine',
      footer: 'Directory · comment',
      fallback: 'Comment by Ada Lovelace on "Analytical Engine": Congrats on the launch!',
    });
    const reply = composeCommentMessage({ ...comment, parentCommentId: '400000' }, { occasion: 'lookup' });
    expect(reply.title).toBe('Reply on Analytical Engine');
    expect(reply.footer).toBe('Directory · reply');
  });

  it('falls back to the post link when the comment has none', () => {
    const { url: _url, ...withoutUrl } = comment;
    expect(composeCommentMessage(withoutUrl).url).toBe(post.url);
  });

  it('keeps a 5,000+ character body whole but keeps the fallback one short line', () => {
    const body = `${'word '.repeat(1200)}\n\nend 🚀`;
    const message = composeCommentMessage({ ...comment, body });
    expect(message.text).toBe(body);
    expect(message.fallback.length).toBeLessThanOrEqual(FALLBACK_MAX);
    expect(message.fallback).not.toContain('\n');
    expect(message.fallback.endsWith('…')).toBe(true);
  });

  it('passes hostile text through as plain text for the renderers to escape', () => {
    const message = composeCommentMessage({ ...comment, body: HOSTILE });
    expect(message.text).toBe(HOSTILE);
    // The summary stays on one line and drops the bidi override so it cannot flip the client's UI.
    expect(message.fallback).not.toMatch(/[\n\u202e\u202c]/);
    expect(message.fallback).toContain('<!channel> look at this @everyone');
  });

  it('does not split an emoji when the fallback is cut', () => {
    const message = composeCommentMessage({ ...comment, body: '🚀'.repeat(300) });
    expect(message.fallback).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('composeCollectionMessage', () => {
  it('uses the collection’s named colour as hex', () => {
    const message = composeCollectionMessage(collection);
    expect(message).toMatchObject({
      kind: 'collection',
      title: 'Engines',
      text: 'Every engine worth knowing',
      color: '#3b82f6',
      footer: 'Directory · featured collection',
      timestamp: '2017-02-02T17:30:00.000Z',
      fallback: 'Featured collection: Engines by Ada Lovelace — Every engine worth knowing',
    });
    expect(field(message, 'Posts')).toBe('7');
    expect(field(message, 'Subscribers')).toBe('44');
  });

  it.each([
    ['#A1B2C3', '#a1b2c3'],
    ['  Teal ', '#14b8a6'],
    ['#abc', KIND_COLORS.collection],
    ['chartreuse-ish', KIND_COLORS.collection],
    ['constructor', KIND_COLORS.collection],
  ])('turns colour %j into %s', (color, expected) => {
    expect(composeCollectionMessage({ ...collection, color }).color).toBe(expected);
  });

  it('falls back to the kind colour and drops a junk background image', () => {
    const { color: _color, ...rest } = collection;
    const message = composeCollectionMessage({ ...rest, backgroundImageUrl: 'not a url' });
    expect(message.color).toBe(KIND_COLORS.collection);
    expect(message.imageUrl).toBeUndefined();
  });

  it('credits a redacted curator as "someone"', () => {
    const message = composeCollectionMessage({ ...collection, user: redacted });
    expect(message.author).toEqual({ name: 'someone' });
    expect(message.fallback).toContain('by someone');
  });
});

describe('composeLiveEventMessage', () => {
  it('puts Remind me and Open under an event in a feed, only Open under its reminder, none on a lookup', () => {
    const url = composeLiveEventMessage(liveEvent).url;
    expect(composeLiveEventMessage(liveEvent).actions).toEqual([
      {
        kind: 'command',
        label: 'Remind me',
        verb: 'remind',
        target: liveEvent.id,
        command: `remind ${liveEvent.id}`,
      },
      { kind: 'link', label: 'Open', url },
    ]);
    expect(composeLiveEventMessage(liveEvent, { reminder: true, now: 0 }).actions).toEqual([
      { kind: 'link', label: 'Open', url },
    ]);
    expect(composeLiveEventMessage(liveEvent, { occasion: 'lookup' }).actions).toBeUndefined();
  });

  it('announces an event with its start, end, format and subscribers', () => {
    const message = composeLiveEventMessage(liveEvent);
    expect(message).toMatchObject({
      kind: 'live',
      title: 'AMA with Ada',
      text: 'Ask anything',
      imageUrl: 'https://images.example.test/live/77.png',
      timestamp: '2017-03-10T18:00:00.000Z',
      color: KIND_COLORS.live,
      footer: 'Directory · live event',
      fallback: 'Live event: AMA with Ada, Fri 10 Mar 2017, 18:00 UTC — Ask anything',
    });
    expect(field(message, 'Starts')).toBe('Fri 10 Mar 2017, 18:00 UTC');
    expect(field(message, 'Ends')).toBe('Fri 10 Mar 2017, 19:00 UTC');
    expect(field(message, 'Format')).toBe('Live video');
    expect(field(message, 'Subscribers')).toBe('120');
  });

  it('composes the reminder "Starting in 15 minutes" from an injected clock', () => {
    const now = Date.parse('2017-03-10T17:45:00.000Z');
    const message = composeLiveEventMessage(liveEvent, { reminder: true, now });
    expect(message.kind).toBe('live-reminder');
    expect(message.title).toBe('Starting in 15 minutes: AMA with Ada');
    expect(message.fallback).toBe('Starting in 15 minutes: AMA with Ada');
    expect(message.footer).toBe('Directory · starting soon');
    expect(message.color).toBe(KIND_COLORS['live-reminder']);
    expect(field(message, 'Starts')).toBe('Fri 10 Mar 2017, 18:00 UTC (in 15 minutes)');
  });

  it('says "Starting now" once the start has passed', () => {
    const now = Date.parse('2017-03-10T18:02:00.000Z');
    const message = composeLiveEventMessage(liveEvent, { reminder: true, now });
    expect(message.title).toBe('Starting now: AMA with Ada');
    expect(field(message, 'Starts')).toBe('Fri 10 Mar 2017, 18:00 UTC');
  });

  it('handles an event without a start date', () => {
    const bare = { id: '5', name: 'Someday AMA', startsAt: null, liveVideo: false };
    const announcement = composeLiveEventMessage(bare);
    expect(announcement.fields).toBeUndefined();
    expect(announcement.timestamp).toBeUndefined();
    expect(announcement.fallback).toBe('Live event: Someday AMA');
    expect(composeLiveEventMessage(bare, { reminder: true, now: 0 }).title).toBe(
      'Starting soon: Someday AMA',
    );
  });
});

describe('composeNotificationMessage', () => {
  it('uses a short text as the headline and the reference as a field', () => {
    const message = composeNotificationMessage(notification);
    expect(message).toMatchObject({
      kind: 'notification',
      title: 'Grace Hopper replied to your comment',
      url: notification.url,
      timestamp: '2017-03-09T09:00:00.000Z',
      footer: 'Directory · notification',
      fallback: 'Notification: Grace Hopper replied to your comment',
    });
    expect(message.text).toBeUndefined();
    expect(field(message, 'Type')).toBe('Comment');
    expect(field(message, 'About')).toBe('Comment #402200');
  });

  it('keeps a long or multi-line text whole in the body under a cut headline', () => {
    const text = `first line\n${'x'.repeat(400)}`;
    const message = composeNotificationMessage({ ...notification, text });
    expect(message.title.length).toBeLessThanOrEqual(150);
    expect(message.text).toBe(text);
  });

  it('gives a notification with no text or kind a generic headline', () => {
    const message = composeNotificationMessage({ id: '1', kind: 'unknown', text: '' });
    expect(message.title).toBe('New notification');
    expect(message.fields).toBeUndefined();
    expect(message.fallback).toBe('New notification');
  });

  it('never links a redacted sender', () => {
    const message = composeNotificationMessage({ ...notification, user: redacted });
    expect(message.author).toEqual({ name: 'someone' });
  });
});

describe('composeUserMessage', () => {
  it('shows a profile with handle, links and what they made and follow', () => {
    const message = composeUserMessage(profile);
    expect(message).toMatchObject({
      kind: 'user',
      title: 'Ada Lovelace (@ada)',
      text: 'Analytical engines',
      url: 'https://www.example-directory.test/@ada',
      thumbnailUrl: 'https://images.example.test/ada/96.png',
      color: KIND_COLORS.user,
      fallback: 'Ada Lovelace (@ada) — Analytical engines',
    });
    expect(field(message, 'Twitter')).toBe('@ada_l');
    expect(field(message, 'Website')).toBe('https://ada.example.test/');
    expect(field(message, 'Maker')).toBe('yes');
    expect(field(message, 'Member since')).toBe('30 Jul 2014');
    expect(field(message, 'Made')).toBe('Analytical Engine');
    expect(field(message, 'Follows')).toBe('Engines');
  });

  it('shows a redacted profile as "someone" with nothing personal or linked', () => {
    const message = composeUserMessage({
      ...profile,
      ...redacted,
      twitterUsername: 'leaked',
      websiteUrl: 'https://leaked.example.test',
    });
    expect(message.title).toBe('someone');
    expect(message.url).toBeUndefined();
    expect(message.thumbnailUrl).toBeUndefined();
    expect(message.text).toBeUndefined();
    expect(allText(message)).not.toContain('leaked');
    expect(field(message, 'Made')).toBe('Analytical Engine');
  });

  it('leaves a profile with nothing else as just a name', () => {
    const message = composeUserMessage({ ...ada, madePosts: [], followedCollections: [] });
    expect(message.fields).toBeUndefined();
    expect(allText(message)).not.toMatch(/undefined|NaN/);
  });
});
