import { describe, expect, it } from 'vitest';
import { composeCommentMessage, composePostMessage, formatMessage } from '../../src/messages/index.js';
import type { Message } from '../../src/ports/index.js';
import { comment as directoryComment, post as directoryPost } from '../fixtures/parsed-records.js';

const HOSTILE = '@everyone <!channel> <@U123> <@123456789012345678>';

describe('formatMessage: a subscription format applied to a composed message', () => {
  const post = composePostMessage({ ...directoryPost, name: `Rocket ${HOSTILE}` });

  it('gives the full card back untouched for full and for a subscription stored without a format', () => {
    expect(formatMessage(post, 'full')).toBe(post);
    expect(formatMessage(post, undefined)).toBe(post);
  });

  it('compact: one linked line, the message summary (who, what, the start of the text), nothing else', () => {
    const comment = composeCommentMessage({
      ...directoryComment,
      body: `Line one\nline two ${HOSTILE} ${'long '.repeat(100)}`,
    });
    const compact = formatMessage(comment, 'compact');
    expect(compact).toEqual({
      kind: 'comment',
      layout: 'line',
      title: comment.fallback,
      url: comment.url,
      color: comment.color,
      fallback: comment.fallback,
    });
    expect(compact.title).not.toContain('\n');
    expect(compact.title.length).toBeLessThanOrEqual(200);
    // Plain text, exactly as composed: escaping stays the renderers' job.
    expect(compact.title).toContain(HOSTILE);
  });

  it('title: the title alone, linked', () => {
    expect(formatMessage(post, 'title')).toEqual({
      kind: 'post',
      layout: 'line',
      title: `Rocket ${HOSTILE}`,
      url: post.url,
      color: post.color,
      fallback: post.fallback,
    });
  });

  it('keeps nothing it does not name, so buttons and images stay on the full card', () => {
    const withExtras = {
      ...post,
      actions: [{ kind: 'link', label: 'Open', url: 'https://directory.example/posts/1' }],
      imageUrl: 'https://img.example/a.png',
    } as Message;
    for (const format of ['compact', 'title'] as const) {
      const line = formatMessage(withExtras, format);
      expect(Object.keys(line).sort()).toEqual(['color', 'fallback', 'kind', 'layout', 'title', 'url']);
    }
  });

  it('falls back to the other line when the one it wants is blank, and leaves out a missing link', () => {
    const bare: Message = { kind: 'info', title: '  ', fallback: 'Only a summary' };
    expect(formatMessage(bare, 'title')).toEqual({
      kind: 'info',
      layout: 'line',
      title: 'Only a summary',
      fallback: 'Only a summary',
    });
    expect(formatMessage({ ...bare, title: 'Only a title', fallback: '' }, 'compact').title).toBe(
      'Only a title',
    );
  });
});
