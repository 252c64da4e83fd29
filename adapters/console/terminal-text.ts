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

/** How `wrap` lays out the bot's own text (help, usage lines, status): see {@link wrap}. */
export interface WrapOptions {
  /** Extra columns a wrapped line's continuation is indented by, so it cannot read as a line of its own. */
  hang?: number;
  /** Which paragraphs hang (default all): a usage line does, prose reads better without. */
  hangs?: (paragraph: string) => boolean;
  /**
   * Keeps `[…]` and `<…>` groups (a usage line's options) on one line when they fit one, so a
   * line never ends inside `[--format full|compact|title]`.
   */
  keepGroups?: boolean;
}

/**
 * A paragraph's words; with `keepGroups`, a `[…]` or `<…>` group is one word (its inner spaces
 * kept). A group longer than `room` is taken apart one level down: `[--digest hourly
 * [--top N]]` keeps `[--top N]` whole.
 */
function words(paragraph: string, room: number, keepGroups: boolean): string[] {
  const plain = paragraph.split(/\s+/).filter((w) => w !== '');
  return keepGroups ? grouped(plain, room, 0) : plain;
}

function grouped(plain: readonly string[], room: number, level: number): string[] {
  const out: string[] = [];
  let group: string[] = [];
  // Brackets are counted from the start of `plain`; words deeper than `level` are held together.
  let depth = 0;
  for (const word of plain) {
    group.push(word);
    for (const c of word) {
      if (c === '[' || c === '<') depth += 1;
      else if ((c === ']' || c === '>') && depth > 0) depth -= 1;
    }
    if (depth > level) continue;
    const joined = group.join(' ');
    if (group.length > 1 && [...joined].length > room) out.push(...grouped(group, room, level + 1));
    else out.push(joined);
    group = [];
  }
  // An unclosed bracket: its words as they are.
  out.push(...group);
  return out;
}

/**
 * Word-wraps text to `width` columns (counted in code points, close enough for a console),
 * keeping paragraph breaks and each line's indentation (up to a few columns), and
 * hard-breaking words longer than a line.
 */
export function wrap(text: string, width: number, options: WrapOptions = {}): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    const hangs = options.hangs?.(paragraph) ?? true;
    const hang = ' '.repeat(hangs ? Math.max(0, options.hang ?? 0) : 0);
    const indent = ' '.repeat(Math.min(MAX_INDENT, /^ */.exec(paragraph)?.[0].length ?? 0));
    const room = Math.max(1, width - indent.length);
    // Continuation lines have `hang` columns less, when that leaves any room at all.
    const rest = room - hang.length >= 10 ? room - hang.length : room;
    let line = '';
    let first = true;
    const push = (piece: string) => {
      lines.push(piece === '' ? '' : indent + (first || rest === room ? '' : hang) + piece);
      first = false;
    };
    const roomNow = () => (first ? room : rest);
    for (const word of words(paragraph, rest, options.keepGroups === true)) {
      let chars = [...word];
      if (line !== '' && [...line].length + 1 + chars.length > roomNow()) {
        push(line);
        line = '';
      }
      if (line !== '') {
        line = `${line} ${word}`;
        continue;
      }
      // Longer than a line: cut after its last `|` that fits (between two choices), else anywhere.
      while (chars.length > roomNow()) {
        const take = roomNow();
        const bar = chars.slice(0, take).lastIndexOf('|');
        const cut = bar > 0 ? bar + 1 : take;
        push(chars.slice(0, cut).join(''));
        chars = chars.slice(cut);
      }
      line = chars.join('');
    }
    push(line);
  }
  // Collapse runs of blank lines a hostile body might use to push content off screen.
  return lines.filter((line, i) => line !== '' || (i > 0 && lines[i - 1] !== ''));
}
