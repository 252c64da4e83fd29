import { describe, expect, it } from 'vitest';
import { stripInvisibleFormatting } from '../../src/ports/index.js';

/** A tag character (TAG LATIN CAPITAL LETTER A): two UTF-16 code units, invisible. */
const TAG = '\u{e0041}';

/**
 * About `length` code units of what a hostile comment body might hold: long unbroken runs of tag
 * characters after a 🏴 (kept) and on their own (stripped), bidi controls, and joiners between
 * ASCII letters. Long runs are what make a scan that looks back over them quadratic.
 */
function hostile(length: number): string {
  const run = Math.floor(length / 8);
  return `🏴${TAG.repeat(run)}${'\u202e\u2066'.repeat(run)}${'a\u200d'.repeat(run)}${TAG.repeat(run)}`;
}

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

  it('strips a hostile 1,600,000-character body at once, so a comment cannot stall the bot', () => {
    // A quadratic scan (the old unbounded lookbehind took 0.95 s on 32k characters) would need
    // minutes here and trip the test's timeout; the linear one takes milliseconds.
    const large = hostile(1_600_000);
    const run = large.length / 8;
    // The flag's tags stay; the lone tags, bidi controls and joiners between ASCII letters go.
    expect(stripInvisibleFormatting(large)).toBe(`🏴${TAG.repeat(run)}${'a'.repeat(run)}`);
  }, 10_000);

  it('keeps a flag’s tags up to its cancel tag and drops tags after it', () => {
    const scotland = '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}';
    expect(stripInvisibleFormatting(`${scotland}\u{e0041}\u{e0042} x`)).toBe(`${scotland} x`);
    expect(stripInvisibleFormatting(`${scotland}${scotland}`)).toBe(`${scotland}${scotland}`);
    expect(stripInvisibleFormatting('🏴\u200b\u{e0067}')).toBe('🏴');
  });
});
