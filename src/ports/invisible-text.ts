/**
 * Invisible formatting characters in upstream text. A U+202E (right-to-left override) in a
 * comment turns `gnp.exe` into what reads as `exe.png`, and zero-width characters make two
 * names that look the same differ, or hide a word from a keyword filter. None of them carry
 * anything a reader can see, so every renderer drops them before escaping (after which the
 * renderers insert their own zero-width spaces to break mentions).
 *
 * What goes: every Unicode format character (General Category Cf), which covers the bidi
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the marks U+200E, U+200F
 * and U+061C, zero-width spaces and joiners, the word joiner, invisible operators, the BOM,
 * soft hyphens and tag characters. Ordinary right-to-left letters are untouched: Hebrew and
 * Arabic still read correctly without explicit marks.
 *
 * What stays, because it is visible or is needed to draw what the writer meant:
 * - the zero-width joiner and non-joiner between two non-ASCII characters: emoji sequences
 *   (👩‍💻, 🏳️‍🌈) and Persian or Indic spelling need them. Between ASCII letters, or at either end,
 *   they only hide things, so they go;
 * - tag characters inside an emoji tag sequence (a 🏴 followed by tags, e.g. the flag of
 *   Scotland); anywhere else they are a known way to smuggle invisible text;
 * - the Arabic and Syriac prepended concatenation marks (U+0600–U+0605 …), which are drawn.
 */

/** Non-ASCII, visible (not a format character) and not a space: something a joiner may join. */
const JOINABLE = String.raw`[^\p{ASCII}\p{Cf}\p{White_Space}]`;
const JOINERS = String.raw`\u200c\u200d`;
const TAGS = String.raw`\u{e0020}-\u{e007f}`;
const DRAWN_FORMAT_MARKS = String.raw`\u0600-\u0605\u06dd\u070f\u0890\u0891\u08e2\u{110bd}\u{110cd}`;

/**
 * One pass, linear in the text's length. A 🏴 tag sequence is matched whole by the first
 * alternative and put back, so a tag character the scan reaches on its own is
 * outside any flag and goes. (Asking "is there a 🏴 somewhere before this tag?" with a lookbehind
 * instead rescans the whole run for every tag: quadratic, seconds of blocked event loop for a
 * comment of a few ten thousand tag characters.) Every other alternative looks at most one
 * character around it.
 */
const INVISIBLE_FORMATTING = new RegExp(
  [
    // A 🏴 tag sequence: tags, then the cancel tag that ends it. Kept.
    String.raw`(\u{1f3f4}[\u{e0020}-\u{e007e}]*\u{e007f}?)`,
    // Every format character except those the alternatives below judge in context.
    String.raw`(?![${JOINERS}${TAGS}${DRAWN_FORMAT_MARKS}])\p{Cf}`,
    // A joiner that does not sit between two joinable characters.
    `(?<!${JOINABLE})[${JOINERS}]`,
    `[${JOINERS}](?!${JOINABLE})`,
    // A tag character outside a 🏴 tag sequence (the first alternative consumes those).
    `[${TAGS}]`,
  ].join('|'),
  'gu',
);

/** `text` without bidi controls and other invisible formatting characters (see above for what stays). */
export function stripInvisibleFormatting(text: string): string {
  // `$1` puts a matched flag back; for everything else the group is unmatched, and `$1` is empty.
  return text.replace(INVISIBLE_FORMATTING, '$1');
}
