import { stripInvisibleFormatting } from '../../src/ports/index.js';

/**
 * Making user text safe for a terminal. A comment body is written straight to stdout, so an
 * ESC sequence in it could recolour, clear or retitle the operator's terminal, a carriage
 * return could overwrite the line before it, and a bidi override could reorder what follows.
 */

// ESC-introduced sequences: CSI (`ESC [ … final`), OSC/DCS/PM/APC strings up to BEL or ST, and two-byte escapes.
const ESCAPE_SEQUENCES =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching escape sequences is the point
  /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[\]PX^_][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[ -~]?/g;
// What is left of C0 (except newline and tab), DEL and C1 (including the 8-bit CSI).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Multi-line text without escape sequences, control characters, bidi controls or other invisible
 * formatting (the same set every chat renderer drops); line breaks normalised to `\n`.
 */
export function stripControls(text: string): string {
  return stripInvisibleFormatting(
    text
      .replace(ESCAPE_SEQUENCES, '')
      .replace(/\r\n?|[\u2028\u2029\v\f]/g, '\n')
      .replace(/\t/g, '  ')
      .replace(CONTROLS, ''),
  );
}

/** One line of safe text: control characters stripped, all whitespace runs collapsed to a space. */
export function oneLine(text: string): string {
  return stripControls(text).replace(/\s+/g, ' ').trim();
}

/** Indentation a paragraph keeps when wrapped; more would let a hostile body push text off screen. */
const MAX_INDENT = 8;

/**
 * Word-wraps text to `width` columns (counted in code points, close enough for a console),
 * keeping paragraph breaks and each line's indentation (up to a few columns), and
 * hard-breaking words longer than a line.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    const indent = ' '.repeat(Math.min(MAX_INDENT, /^ */.exec(paragraph)?.[0].length ?? 0));
    const room = Math.max(1, width - indent.length);
    let line = '';
    const push = (piece: string) => lines.push(piece === '' ? '' : indent + piece);
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      let rest = [...word];
      while (rest.length > room) {
        if (line !== '') {
          push(line);
          line = '';
        }
        push(rest.slice(0, room).join(''));
        rest = rest.slice(room);
      }
      const piece = rest.join('');
      if (piece === '') continue;
      const candidate = line === '' ? piece : `${line} ${piece}`;
      if ([...candidate].length > room) {
        push(line);
        line = piece;
      } else {
        line = candidate;
      }
    }
    push(line);
  }
  // Collapse runs of blank lines a hostile body might use to push content off screen.
  return lines.filter((line, i) => line !== '' || (i > 0 && lines[i - 1] !== ''));
}
