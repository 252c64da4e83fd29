import { describe, expect, it } from 'vitest';
import { stripInvisibleFormatting } from '../../src/ports/index.js';

describe('stripInvisibleFormatting', () => {
  it('drops bidi embeddings, overrides, isolates and marks, so a spoofed file name reads as written', () => {
    expect(stripInvisibleFormatting('invoice\u202egnp.exe')).toBe('invoicegnp.exe');
    expect(stripInvisibleFormatting('\u202aa\u202bb\u202cc\u202dd\u2066e\u2067f\u2068g\u2069h')).toBe(
      'abcdefgh',
    );
    expect(stripInvisibleFormatting('x\u200ey\u200fz\u061c!')).toBe('xyz!');
  });

  it('drops zero-width and other invisible formatting characters', () => {
    expect(stripInvisibleFormatting('Pay\u200bPal\u2060 \ufeffad\u00admin\u2062')).toBe('PayPal admin');
    // A joiner between ASCII letters, or at either end, only hides something.
    expect(stripInvisibleFormatting('\u200dad\u200dmin\u200c')).toBe('admin');
    // Tag characters outside a flag spell invisible text.
    expect(stripInvisibleFormatting('hello\u{e0069}\u{e0067}\u{e006e}')).toBe('hello');
  });

  it('keeps what draws something: emoji sequences, Persian spelling, flag tags, Arabic number signs, RTL letters', () => {
    for (const kept of [
      '👩\u200d💻 and 🏳\ufe0f\u200d🌈',
      'می\u200cخواهم',
      '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
      '\u0600١٢٣',
      'שלום עולם and مرحبا',
    ]) {
      expect(stripInvisibleFormatting(kept)).toBe(kept);
    }
  });
});
