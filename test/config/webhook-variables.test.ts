import { describe, expect, it } from 'vitest';
import { configuredWebhooks } from '../../src/app/webhook-setup.js';
import { configProblems, loadConfig } from '../../src/config/load-config.js';

const BASE = { DIRECTORY_BASE_URL: 'https://directory.example', DIRECTORY_TOKEN: 'token-abcdef' };
const TEAMS =
  'https://prod-12.westus.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sig=SIGNATURE_secret_value';

function problems(environment: Record<string, string>): string[] {
  try {
    loadConfig({ environment: { ...BASE, ...environment }, envFile: false });
    return [];
  } catch (error) {
    return [...(configProblems(error) ?? [])];
  }
}

describe('webhook variables', () => {
  it('reads WEBHOOK_<NAME>_URL as the webhook webhook:<name>, its URL a secret', () => {
    const config = loadConfig({
      environment: { ...BASE, WEBHOOK_TEAM_NEWS_URL: TEAMS, SUBSCRIPTIONS: 'webhook:team-news=posts' },
      envFile: false,
    });
    expect(config.webhooks).toEqual([
      { name: 'team-news', url: TEAMS, secret: undefined, variable: 'WEBHOOK_TEAM_NEWS_URL' },
    ]);
    expect(config.secrets).toContain(TEAMS);
    expect(configuredWebhooks(config)).toMatchObject([
      { name: 'team-news', kind: 'teams', platform: 'teams-webhook' },
    ]);
  });

  it('names the variable of a bad URL and never prints the value', () => {
    const lines = problems({ WEBHOOK_NEWS_URL: 'not a url sig=SECRET' });
    expect(lines).toEqual([expect.stringMatching(/^WEBHOOK_NEWS_URL: expected an absolute https URL/)]);
    expect(lines.join('\n')).not.toContain('SECRET');
  });

  it('names a route whose webhook has no URL, a secret without a URL, and a name SUBSCRIPTIONS cannot write', () => {
    expect(problems({ SUBSCRIPTIONS: 'webhook:news=posts' })).toEqual([
      "SUBSCRIPTIONS: webhook:news has no URL: set WEBHOOK_NEWS_URL to the webhook's URL",
    ]);
    expect(problems({ WEBHOOK_NEWS_SECRET: 'x'.repeat(40) })).toEqual([
      'WEBHOOK_NEWS_SECRET: set only beside WEBHOOK_NEWS_URL (the webhook it signs for)',
    ]);
    expect(problems({ WEBHOOK_A__B_URL: TEAMS })[0]).toMatch(/^WEBHOOK_A__B_URL: the webhook's name/);
    expect(problems({ WEBHOOK_NEWS_URL: 'https://hooks.example/x', WEBHOOK_NEWS_SECRET: 'short' })).toEqual([
      'WEBHOOK_NEWS_SECRET: expected at least 32 characters (openssl rand -hex 32)',
    ]);
  });

  it('needs a real directory with a webhook, as with Slack or Discord', () => {
    let lines: string[] = [];
    try {
      loadConfig({ environment: { WEBHOOK_NEWS_URL: TEAMS }, envFile: false });
    } catch (error) {
      lines = [...(configProblems(error) ?? [])];
    }
    expect(lines).toEqual([
      expect.stringMatching(/^DIRECTORY_BASE_URL: required with Slack, Discord or a webhook/),
    ]);
  });

  it('refuses, naming the variable, a URL no kind takes and a retired Teams connector', () => {
    const unknown = loadConfig({
      environment: { ...BASE, WEBHOOK_NEWS_URL: 'https://hooks.example/x' },
      envFile: false,
    });
    expect(() => configuredWebhooks(unknown)).toThrow(
      /WEBHOOK_NEWS_URL: not a Discord webhook.*also set WEBHOOK_NEWS_SECRET/,
    );
    const retired = loadConfig({
      environment: {
        ...BASE,
        WEBHOOK_NEWS_URL: 'https://contoso.webhook.office.com/webhookb2/a/IncomingWebhook/b/c',
      },
      envFile: false,
    });
    expect(() => configuredWebhooks(retired)).toThrow(
      /WEBHOOK_NEWS_URL: this is an Office 365 connector URL/,
    );
  });
});
