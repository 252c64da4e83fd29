import { describe, expect, it } from 'vitest';
import { COMMAND_SPECS, parseInvocation } from '../../src/commands/index.js';
import { tokenize } from '../../src/commands/tokenize.js';

const parse = (text: string) => parseInvocation(text, COMMAND_SPECS);

function problem(text: string): string {
  const result = parse(text);
  if (result.ok !== false) throw new Error(`expected "${text}" to be refused`);
  return result.problem;
}

function args(text: string) {
  const result = parse(text);
  if (result.ok !== true) throw new Error(`expected "${text}" to parse: ${JSON.stringify(result)}`);
  return result.args;
}

describe('tokenize', () => {
  it('keeps quoted words together, with straight and typographic quotes and escapes', () => {
    expect(tokenize('subscribe comments --keyword "machine learning"')).toEqual({
      ok: true,
      tokens: ['subscribe', 'comments', '--keyword', 'machine learning'],
    });
    expect(tokenize('a \u201cb c\u201d \'d e\' "say \\"hi\\""')).toEqual({
      ok: true,
      tokens: ['a', 'b c', 'd e', 'say "hi"'],
    });
  });

  it('reports an unterminated quote instead of guessing', () => {
    expect(tokenize('post "abc')).toEqual({ ok: false, problem: 'a quote is not closed' });
  });
});

describe('parseInvocation', () => {
  it('reads positional arguments, --flag value, --flag=value and switches', () => {
    expect(args('posts 2025-01-31 --top 3')).toEqual({ day: '2025-01-31', top: 3 });
    expect(args('posts --top=7')).toEqual({ top: 7 });
    expect(args('live 2025-03 --video')).toEqual({ when: '2025-03', video: true });
    expect(args('live --video=false')).toEqual({ video: false });
  });

  it('collects repeatable flags, including an alias spelling and an em dash typed for --', () => {
    expect(
      args('subscribe comments --keyword ai,ml --keywords "deep learning" \u2014exclude crypto'),
    ).toEqual({
      feed: 'comments',
      keyword: ['ai,ml', 'deep learning'],
      exclude: ['crypto'],
    });
  });

  it('treats an empty text as a request for help', () => {
    expect(parse('   ')).toEqual({ ok: 'empty' });
  });

  it('suggests the closest command for a typo and the list when nothing is close', () => {
    expect(problem('psots')).toBe('Unknown command "psots". Did you mean "posts"?');
    expect(problem('colection abc')).toContain('Did you mean "collection"?');
    expect(problem('subscrbe posts')).toContain('Did you mean "subscribe"?');
    expect(problem('xyzzy')).toBe('Unknown command "xyzzy". Try "help" for the list of commands.');
  });

  it('names an unknown flag and the closest one', () => {
    expect(problem('posts --tpo 3')).toBe('Unknown flag --tpo. Did you mean --top?');
    expect(problem('status --verbose')).toBe('Unknown flag --verbose: "status" takes no flags.');
  });

  it('says when a flag has no value, also when the next word is another flag', () => {
    expect(problem('posts --top')).toBe('--top needs a value.');
    expect(problem('subscribe comments --keyword --video')).toBe('--keyword needs a value.');
  });

  it('says when a value has the wrong type or is out of range', () => {
    expect(problem('posts --top many')).toBe('--top expects a whole number, got "many".');
    expect(problem('posts --top 0')).toBe('--top must be at least 1, got "0".');
    expect(problem('posts --top 11')).toBe('--top must be at most 10, got "11".');
    expect(problem('posts yesterday')).toBe(
      '<day> expects today or a date like 2025-01-31, got "yesterday".',
    );
    expect(problem('posts 2025-02-30')).toContain('<day> expects today or a date');
    expect(problem('live 2025-13')).toContain('<when> expects upcoming, undated or a month');
    expect(problem('live --video=maybe')).toBe(
      '--video is a switch: give it alone or as --video=true|false.',
    );
  });

  it('says when a value is too long, before anything else is checked', () => {
    expect(problem(`user ${'a'.repeat(60)}`)).toBe('<username> is too long: at most 51 characters, got 60.');
    expect(problem(`x ${'a'.repeat(1000)}`)).toBe('The command is too long: at most 1000 characters.');
  });

  it('says what is missing or extra', () => {
    expect(problem('post')).toBe('Missing <post>: post id, slug or link.');
    expect(problem('collection a b')).toBe('Unexpected argument "b".');
    expect(problem('status now')).toBe('"status" takes no arguments, got "now".');
    expect(problem('posts --top 1 --top 2')).toBe('--top is given more than once.');
  });

  it('accepts post ids, slugs and links, and refuses anything else', () => {
    expect(args('post 42')).toEqual({ post: '42' });
    expect(args('post https://directory.example.com/posts/notion-ai')).toEqual({
      post: 'https://directory.example.com/posts/notion-ai',
    });
    expect(args('post <https://directory.example.com/posts/notion-ai|Notion>')).toBeDefined();
    expect(problem('post "drop table"')).toBe(
      '<post> expects a post id, slug or directory link, got "drop table".',
    );
  });

  it('reads quoted values for flags', () => {
    expect(args('collections featured --by "@jane_doe"')).toEqual({ featured: 'featured', by: '@jane_doe' });
  });
});
