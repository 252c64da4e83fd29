import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * Least privilege, stated: every scope, event, permission bit and intent the bot is granted has a
 * row in docs/slack.md or docs/discord.md saying which feature needs it, and every row names
 * something still granted. Only repository files are read.
 */
const ROOT = resolve('.');
/** The permissions integer of the invite URL in docs/discord.md. */
const INVITE_PERMISSIONS = '309237664768';
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** A grant as "<kind> <name>", e.g. "bot scope chat:write" or "permission SendMessages". */
type Grant = string;

interface Justification {
  grant: Grant;
  why: string;
  api: string;
}

/**
 * The rows of the Markdown table whose header starts with `firstHeader`: the backticked name in
 * the first cell and the kind in the second make the grant; the last two cells, both required,
 * say which feature needs it and through which API.
 */
function justifications(markdown: string, firstHeader: string): Justification[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^\\|\\s*${firstHeader}\\s*\\|`).test(line));
  if (start < 0) throw new Error(`no table with the header "${firstHeader}"`);
  const rows: Justification[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [name = '', kind = '', why = '', api = ''] = line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    const bare = /^`([^`]+)`$/.exec(name)?.[1];
    if (bare === undefined) throw new Error(`"${name}" is not one backticked name: ${line}`);
    if (why === '' || api === '') throw new Error(`${name} does not say what needs it and through which API`);
    rows.push({ grant: `${kind} ${bare}`, why, api });
  }
  return rows;
}

/** What is granted without a row, and what has a row without being granted. */
function compare(granted: Grant[], rows: Justification[]) {
  const justified = new Set(rows.map((row) => row.grant));
  return {
    unjustified: granted.filter((grant) => !justified.has(grant)).sort(),
    stale: [...justified].filter((grant) => !granted.includes(grant)).sort(),
  };
}

type SlackManifest = {
  features?: { app_home?: { messages_tab_enabled?: boolean; messages_tab_read_only_enabled?: boolean } };
  oauth_config?: { scopes?: { bot?: string[]; user?: string[] } };
  settings?: { event_subscriptions?: { bot_events?: string[]; user_events?: string[] } };
};

/** Every scope and event subscription slack-manifest.yml asks for. */
function slackGrants(manifest: SlackManifest): Grant[] {
  const scopes = manifest.oauth_config?.scopes ?? {};
  const events = manifest.settings?.event_subscriptions ?? {};
  return [
    ...(scopes.bot ?? []).map((name) => `bot scope ${name}`),
    ...(scopes.user ?? []).map((name) => `user scope ${name}`),
    ...(events.bot_events ?? []).map((name) => `bot event ${name}`),
    ...(events.user_events ?? []).map((name) => `user event ${name}`),
  ];
}

/** The permission bits of an integer by discord.js's names; a bit with no name stays visible. */
function permissionNames(permissions: bigint): string[] {
  const names: string[] = [];
  let unnamed = permissions;
  for (const [name, bit] of Object.entries(PermissionFlagsBits)) {
    if ((permissions & bit) === bit) names.push(name);
    unnamed &= ~bit;
  }
  for (let bit = 0n; unnamed >> bit !== 0n; bit++) {
    if ((unnamed >> bit) & 1n) names.push(`unnamed bit ${bit}`);
  }
  return names;
}

/** The scopes and permission bits of the invite URL in docs/discord.md, and the intents the adapter opens the gateway with. */
function discordGrants(doc: string): Grant[] {
  const urls = doc.match(/https:\/\/discord\.com\/oauth2\/authorize\?[^\s`)>]+/g) ?? [];
  expect(urls.length, 'docs/discord.md has an invite URL').toBeGreaterThan(0);
  const invites = urls.map((url) => new URL(url).searchParams);
  const permissions = new Set(invites.map((query) => query.get('permissions') ?? ''));
  expect([...permissions], 'every invite URL asks for the same permissions').toHaveLength(1);
  const [integer = ''] = permissions;
  expect(integer, 'the permissions are a decimal integer').toMatch(/^\d+$/);
  const stated = [...doc.matchAll(/permissions integer `(\d+)`/g)].map((m) => m[1]);
  expect(stated, 'the integer the text states is the one the URL asks for').toEqual(
    stated.map(() => integer),
  );
  const scopes = new Set(invites.flatMap((query) => (query.get('scope') ?? '').split(' ')));
  const intents = readdirSync(join(ROOT, 'adapters/discord'))
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => [...read(`adapters/discord/${file}`).matchAll(/GatewayIntentBits\.(\w+)/g)])
    .map((m) => m[1]!);
  return [
    ...[...scopes].map((name) => `OAuth2 scope ${name}`),
    ...permissionNames(BigInt(integer)).map((name) => `permission ${name}`),
    ...[...new Set(intents)].map((name) => `gateway intent ${name}`),
  ];
}

describe('Slack: every scope and event in the manifest is justified in docs/slack.md', () => {
  const manifest = parse(read('slack-manifest.yml')) as SlackManifest;
  const rows = justifications(read('docs/slack.md'), 'Scope or event');

  it('the manifest and the table name the same scopes and events', () => {
    expect(compare(slackGrants(manifest), rows)).toEqual({ unjustified: [], stale: [] });
  });

  it('the check can fail: an added scope or event, or a removed one, is reported', () => {
    const grown = structuredClone(manifest);
    grown.oauth_config!.scopes!.user = ['channels:history'];
    grown.settings = { event_subscriptions: { bot_events: ['message.channels'] } };
    expect(compare(slackGrants(grown), rows).unjustified).toEqual([
      'bot event message.channels',
      'user scope channels:history',
    ]);
    const shrunk = structuredClone(manifest);
    shrunk.oauth_config!.scopes!.bot = shrunk.oauth_config!.scopes!.bot!.filter((s) => s !== 'users:read');
    expect(compare(slackGrants(shrunk), rows).stale).toEqual(['bot scope users:read']);
  });

  it('reminder DMs (im:write) land in a Messages tab people can see but not write to', () => {
    expect(manifest.oauth_config?.scopes?.bot).toContain('im:write');
    // With the tab off, Slack hides the app's DM conversation and a reminder would go unseen.
    expect(manifest.features?.app_home).toMatchObject({
      messages_tab_enabled: true,
      messages_tab_read_only_enabled: true,
    });
  });
});

describe('Discord: every invite scope, permission bit and intent is justified in docs/discord.md', () => {
  const doc = read('docs/discord.md');
  const rows = justifications(doc, 'Grant');

  it('the invite URL, the adapter and the table name the same grants', () => {
    expect(compare(discordGrants(doc), rows)).toEqual({ unjustified: [], stale: [] });
  });

  it('the check can fail: an added bit (named or not) or a dropped one is reported', () => {
    const withManageMessages = doc.replaceAll(
      INVITE_PERMISSIONS,
      String(BigInt(INVITE_PERMISSIONS) | PermissionFlagsBits.ManageMessages),
    );
    expect(compare(discordGrants(withManageMessages), rows).unjustified).toEqual([
      'permission ManageMessages',
    ]);
    const highestNamed = Object.values(PermissionFlagsBits).reduce((a, b) => (a > b ? a : b));
    const spare = highestNamed.toString(2).length; // the bit above every named one
    expect(permissionNames(1n << BigInt(spare))).toEqual([`unnamed bit ${spare}`]);
    const withoutEmbeds = doc.replaceAll(
      INVITE_PERMISSIONS,
      String(BigInt(INVITE_PERMISSIONS) & ~PermissionFlagsBits.EmbedLinks),
    );
    expect(compare(discordGrants(withoutEmbeds), rows).stale).toEqual(['permission EmbedLinks']);
  });
});
