import { describe, expect, it } from 'vitest';
import { BotError, messageOf } from '../src/errors.js';

describe('messageOf', () => {
  it("gives an Error's own message, without its name", () => {
    expect(messageOf(new Error('connection refused'))).toBe('connection refused');
    expect(messageOf(new BotError('store_unavailable', 'The redis store is unreachable'))).toBe(
      'The redis store is unreachable',
    );
  });

  it('turns anything else thrown into a string', () => {
    expect(messageOf('plain text')).toBe('plain text');
    expect(messageOf(42)).toBe('42');
    expect(messageOf(undefined)).toBe('undefined');
    expect(messageOf({ toString: () => 'custom' })).toBe('custom');
  });
});
