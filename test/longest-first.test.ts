import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LONGEST_FIRST } from './support/longest-first-sequencer.js';

describe('the longest test files start first', () => {
  it('names files that exist (a renamed file would silently start last again)', () => {
    expect(LONGEST_FIRST.filter((path) => !existsSync(path))).toEqual([]);
  });
});
