/**
 * A platform's message payload (the Block Kit or embeds its adapter would send) as a view the
 * panel's templates draw close to how Slack and Discord show it. Text stays text: the markup of
 * each platform (Slack mrkdwn, Discord markdown) becomes runs with a link, bold or italic, and the
 * templates escape every run. Images are named, not loaded: the panel's pages fetch nothing from
 * other sites.
 */

/** A run of text: plain, or a link, bold, italic or code. */
export interface Run {
  text: string;
  href?: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
}

export type SlackBlockView =
  | { type: 'header'; text: string }
  | { type: 'section'; text: Run[]; fields: Run[][]; image?: string }
  | { type: 'context'; elements: { image?: string; text?: Run[] }[] }
  | { type: 'image'; alt: string }
  | { type: 'actions'; buttons: { text: string; href?: string }[] }
  | { type: 'divider' };

export interface SlackPreview {
  blocks: SlackBlockView[];
  /** The notification text (`text`), shown where blocks are not. */
  fallback: string;
}

export interface DiscordEmbedView {
  color?: string;
  author?: { name: string; href?: string };
  title?: string;
  href?: string;
  description: Run[];
  fields: { name: string; value: Run[]; inline: boolean }[];
  image?: string;
  thumbnail?: string;
  footer?: string;
  timestamp?: string;
}

export interface DiscordPreview {
  content: Run[];
  embeds: DiscordEmbedView[];
  buttons: { text: string; href?: string }[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Only web links become links; anything else stays text. */
function safeHref(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
}

/** Bold, italic and code inside plain text, with `marks` as each platform writes them. */
function styled(plain: string, marks: { bold: RegExp; italic: RegExp }): Run[] {
  const runs: Run[] = [];
  const pattern = new RegExp(`${marks.bold.source}|${marks.italic.source}|\`([^\`\\n]+)\``, 'g');
  let last = 0;
  for (const match of plain.matchAll(pattern)) {
    if (match.index > last) runs.push({ text: plain.slice(last, match.index) });
    const [, bold, italic, code] = match;
    if (bold !== undefined) runs.push({ text: bold, bold: true });
    else if (italic !== undefined) runs.push({ text: italic, italic: true });
    else runs.push({ text: code ?? '', code: true });
    last = match.index + match[0].length;
  }
  if (last < plain.length) runs.push({ text: plain.slice(last) });
  return runs;
}

const unescapeSlack = (value: string) =>
  value.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

const UTC_MINUTE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * A platform's date token as the preview shows it. Slack and Discord draw it in the reader's
 * own zone, which the panel does not know; UTC, said, rather than the ISO fallback text Slack
 * keeps only for clients that cannot draw dates.
 */
export function shownInstant(epochSeconds: number): string {
  return `${UTC_MINUTE.format(new Date(epochSeconds * 1000))} UTC`;
}

/** An ISO instant (a Discord embed's `timestamp`) as `shownInstant` shows it; as given if unreadable. */
function shownIsoInstant(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : shownInstant(Math.floor(ms / 1000));
}

/** Slack mrkdwn: `<url|label>`, `<!date^…|fallback>`, `*bold*`, `_italic_`, entities. */
export function slackRuns(mrkdwn: string): Run[] {
  const runs: Run[] = [];
  const marks = { bold: /\*([^*\n]+)\*/, italic: /_([^_\n]+)_/ };
  let last = 0;
  for (const match of mrkdwn.matchAll(/<([^<>]+)>/g)) {
    if (match.index > last) runs.push(...styled(unescapeSlack(mrkdwn.slice(last, match.index)), marks));
    const inner = match[1] ?? '';
    const bar = inner.indexOf('|');
    const target = bar === -1 ? inner : inner.slice(0, bar);
    const label = unescapeSlack(bar === -1 ? inner : inner.slice(bar + 1));
    const date = /^!date\^(\d+)\^/.exec(target);
    if (date !== null) runs.push({ text: shownInstant(Number(date[1])) });
    else if (target.startsWith('!')) runs.push({ text: label });
    else {
      const href = safeHref(unescapeSlack(target));
      runs.push(href === undefined ? { text: label } : { text: label, href });
    }
    last = match.index + match[0].length;
  }
  if (last < mrkdwn.length) runs.push(...styled(unescapeSlack(mrkdwn.slice(last)), marks));
  return runs;
}

/** Discord markdown: `[label](url)`, `<t:…>` timestamps, `**bold**`, `*italic*`, backslash escapes. */
export function discordRuns(markdown: string): Run[] {
  const runs: Run[] = [];
  const marks = { bold: /\*\*([^*\n]+)\*\*/, italic: /(?<![\\*])\*([^*\n]+)\*/ };
  const unescaped = (value: string) => value.replace(/\\([\\*_~`|>[\]()#-])/g, '$1');
  const plain = (value: string) => styled(value, marks).map((run) => ({ ...run, text: unescaped(run.text) }));
  let last = 0;
  for (const match of markdown.matchAll(
    /\[((?:\\.|[^\]\\])+)\]\(<?([^()\s<>]+)>?\)|<t:(\d+)(?::[a-zA-Z])?>/g,
  )) {
    if (match.index > last) runs.push(...plain(markdown.slice(last, match.index)));
    const [, label, url, seconds] = match;
    if (seconds !== undefined) runs.push({ text: shownInstant(Number(seconds)) });
    else {
      const href = safeHref(url ?? '');
      const shown = unescaped(label ?? '');
      runs.push(href === undefined ? { text: shown } : { text: shown, href });
    }
    last = match.index + match[0].length;
  }
  if (last < markdown.length) runs.push(...plain(markdown.slice(last)));
  return runs;
}

/** Block Kit as Slack shows it (the block types the Slack adapter sends). */
export function slackPreview(payload: unknown): SlackPreview {
  const body = isRecord(payload) ? payload : {};
  const blocks: SlackBlockView[] = [];
  for (const block of list(body['blocks']).filter(isRecord)) {
    const type = text(block['type']);
    if (type === 'header' && isRecord(block['text']))
      blocks.push({ type: 'header', text: text(block['text']['text']) });
    else if (type === 'section') {
      const accessory = isRecord(block['accessory']) ? block['accessory'] : undefined;
      blocks.push({
        type: 'section',
        text: isRecord(block['text']) ? slackRuns(text(block['text']['text'])) : [],
        fields: list(block['fields'])
          .filter(isRecord)
          .map((f) => slackRuns(text(f['text']))),
        ...(accessory?.['type'] === 'image' ? { image: text(accessory['alt_text']) || 'image' } : {}),
      });
    } else if (type === 'context') {
      blocks.push({
        type: 'context',
        elements: list(block['elements'])
          .filter(isRecord)
          .map((e) =>
            e['type'] === 'image'
              ? { image: text(e['alt_text']) || 'image' }
              : { text: slackRuns(text(e['text'])) },
          ),
      });
    } else if (type === 'image') blocks.push({ type: 'image', alt: text(block['alt_text']) || 'image' });
    else if (type === 'divider') blocks.push({ type: 'divider' });
    else if (type === 'actions') {
      blocks.push({
        type: 'actions',
        buttons: list(block['elements'])
          .filter(isRecord)
          .map((e) => {
            const href = safeHref(text(e['url']));
            const label = isRecord(e['text']) ? text(e['text']['text']) : '';
            return href === undefined ? { text: label } : { text: label, href };
          }),
      });
    }
  }
  return { blocks, fallback: text(body['text']) };
}

/** A Discord message body (content, embeds, link buttons) as Discord shows it. */
export function discordPreview(payload: unknown): DiscordPreview {
  const body = isRecord(payload) ? payload : {};
  const embeds = list(body['embeds'])
    .filter(isRecord)
    .map((embed): DiscordEmbedView => {
      const author = isRecord(embed['author']) ? embed['author'] : undefined;
      const color =
        typeof embed['color'] === 'number' ? `#${embed['color'].toString(16).padStart(6, '0')}` : undefined;
      const href = safeHref(text(embed['url']));
      const authorHref = author === undefined ? undefined : safeHref(text(author['url']));
      const footer = isRecord(embed['footer']) ? text(embed['footer']['text']) : '';
      return {
        ...(color === undefined ? {} : { color }),
        ...(author === undefined
          ? {}
          : {
              author: {
                name: text(author['name']),
                ...(authorHref === undefined ? {} : { href: authorHref }),
              },
            }),
        ...(text(embed['title']) === '' ? {} : { title: text(embed['title']) }),
        ...(href === undefined ? {} : { href }),
        description: discordRuns(text(embed['description'])),
        fields: list(embed['fields'])
          .filter(isRecord)
          .map((f) => ({
            name: text(f['name']),
            value: discordRuns(text(f['value'])),
            inline: f['inline'] === true,
          })),
        ...(isRecord(embed['image']) ? { image: 'image' } : {}),
        ...(isRecord(embed['thumbnail']) ? { thumbnail: 'thumbnail' } : {}),
        ...(footer === '' ? {} : { footer }),
        ...(text(embed['timestamp']) === '' ? {} : { timestamp: shownIsoInstant(text(embed['timestamp'])) }),
      };
    });
  const buttons = list(body['components'])
    .filter(isRecord)
    .flatMap((row) => list(row['components']).filter(isRecord))
    .map((b) => {
      const href = safeHref(text(b['url']));
      return href === undefined ? { text: text(b['label']) } : { text: text(b['label']), href };
    });
  return { content: discordRuns(text(body['content'])), embeds, buttons };
}
