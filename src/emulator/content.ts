import type { Random } from './prng.js';

/**
 * Text the seed data and the activity simulator draw from. Plain, realistic strings mixed
 * with hostile ones (chat mentions, markup, Markdown, emoji, right-to-left text), so every
 * renderer downstream is exercised against what real users type.
 */

const ADJECTIVES = ['Swift', 'Quiet', 'Bright', 'Lucid', 'Nimble', 'Bold', 'Tiny', 'Open', 'Calm', 'Clever'];
const NOUNS = ['Notes', 'Canvas', 'Pilot', 'Ledger', 'Forge', 'Atlas', 'Relay', 'Harbor', 'Beacon', 'Loom'];

const FIRST_NAMES = [
  'Ada',
  'Grace',
  'Linus',
  'Yuki',
  'Amara',
  'Mateo',
  'Noor',
  'Priya',
  'Olu',
  'Sven',
  'Lea',
];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Okafor', 'Tanaka', 'García', 'Haddad', 'Nair', 'Berg', 'Dubois'];

/** Hostile fragments: every one of these must be neutralised by the bot's renderers. */
export const HOSTILE_SNIPPETS: readonly string[] = [
  '<!channel> look at this',
  '<!here> launching now',
  '@everyone please upvote',
  '@here quick question',
  'ping <@U123ABC> and <#C024BE91L>',
  '<https://evil.example|click me>',
  '**bold claim** and _italics_ and `code` and ~~strike~~',
  '[a link](https://example.com/?q=1&x=<y>)',
  '```\nmultiline code block\n```',
  '> quoted line\n> another',
  '<script>alert("x")</script> & "quotes" \'single\'',
  'Launch day 🚀🔥 👩‍💻 ❤️',
  'مرحبا بالعالم — تطبيق رائع',
  'שלום עולם, מוצר נהדר',
  'mixed \u202Eevil\u202C direction',
  'zero\u200Bwidth and tab\tand newline\nend',
  '|| spoiler || <t:1700000000:R>',
];

const PLAIN_SENTENCES: readonly string[] = [
  'Congrats on the launch, this looks really useful.',
  'How does this compare with the tools we already use?',
  'We tried it last week and the onboarding was smooth.',
  'Is there an API, and what are the rate limits?',
  'Great work team. Pricing page is a bit confusing though.',
  'Would love a dark mode and an export to CSV.',
  'Exactly what I needed for my side project.',
];

export function productName(random: Random, id: number): string {
  return `${random.pick(ADJECTIVES)} ${random.pick(NOUNS)} ${id}`;
}

export function personName(random: Random): string {
  return `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
}

export function slugify(text: string, id: number): string {
  const base = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const suffix = `-${id}`;
  return base.endsWith(suffix) ? base : `${base || 'item'}${suffix}`;
}

/**
 * A comment-like body: mostly plain, sometimes hostile, occasionally longer than 5,000
 * characters so truncation is exercised.
 */
export function bodyText(random: Random): string {
  const roll = random.next();
  if (roll < 0.05) {
    const paragraph = `${random.pick(PLAIN_SENTENCES)} ${random.pick(HOSTILE_SNIPPETS)} `;
    return paragraph.repeat(Math.ceil(5200 / paragraph.length)).trimEnd();
  }
  if (roll < 0.4) return `${random.pick(PLAIN_SENTENCES)} ${random.pick(HOSTILE_SNIPPETS)}`;
  return random.pick(PLAIN_SENTENCES);
}

/** A short tagline, sometimes hostile. */
export function taglineText(random: Random): string {
  if (random.chance(0.25)) return `The tool for ${random.pick(HOSTILE_SNIPPETS)}`;
  return `The ${random.pick(ADJECTIVES).toLowerCase()} way to manage your ${random.pick(NOUNS).toLowerCase()}`;
}

export const COLORS: readonly string[] = ['blue', 'green', 'orange', 'purple', 'red', 'teal', 'yellow'];
