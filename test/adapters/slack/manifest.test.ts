import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import formats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SLACK_BOT_SCOPES } from '../../../adapters/slack/index.js';
import { directoryLinks } from '../../../src/commands/index.js';
import { EMULATOR_WEB_URL } from '../../../src/emulator/index.js';

/** Slack's manifest schemas, vendored (test/fixtures/platform/README.md). */
const SCHEMAS = new URL('../../fixtures/platform/slack-manifest-schema/', import.meta.url);
const MANIFEST = new URL('../../../slack-manifest.yml', import.meta.url);

function readJson(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(name, SCHEMAS), 'utf8')) as Record<string, unknown>;
}

/** Slack's own manifest schema; its versioned parts are registered under the URLs it refers to. */
function validator() {
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: under NodeNext its callable is the `default` of the module object.
  formats.default(ajv);
  const base = 'https://raw.githubusercontent.com/slackapi/manifest-schema/v0.5.0/schemas/';
  ajv.addSchema(readJson('schemas_manifest.schema.1.0.0.json'), `${base}manifest.schema.1.0.0.json`);
  ajv.addSchema(readJson('schemas_manifest.schema.2.0.0.json'), `${base}manifest.schema.2.0.0.json`);
  return ajv.compile(readJson('manifest.schema.json'));
}

type Manifest = {
  features: { slash_commands: { command: string; url: string }[]; unfurl_domains: string[] };
  oauth_config: { scopes: { bot: string[] }; redirect_urls: string[] };
  settings: {
    interactivity: { is_enabled: boolean; request_url: string };
    socket_mode_enabled: boolean;
    token_rotation_enabled: boolean;
    event_subscriptions: { bot_events: string[] };
  };
};

describe('slack-manifest.yml', () => {
  const manifest = parse(readFileSync(MANIFEST, 'utf8')) as Manifest;

  it('validates against Slack manifest schema', () => {
    const validate = validator();
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);
  });

  it('the validator can fail: Slack own invalid example is refused', () => {
    const validate = validator();
    expect(validate(readJson('tests_manifests_v1_manifest.invalid.json'))).toBe(false);
    expect(validate({ ...manifest, features: { slash_commands: [{ command: 'directory' }] } })).toBe(false);
  });

  it('still validates when switched to Socket Mode', () => {
    const socket = structuredClone(manifest);
    socket.settings.socket_mode_enabled = true;
    expect(validator()(socket)).toBe(true);
  });

  it('declares /directory, the events URL, interactivity and exactly the scopes the adapter asks for', () => {
    expect(manifest.features.slash_commands).toEqual([
      expect.objectContaining({ command: '/directory', url: expect.stringMatching(/\/slack\/events$/) }),
    ]);
    expect(manifest.settings.interactivity).toMatchObject({ is_enabled: true });
    expect(manifest.settings.interactivity.request_url).toMatch(/\/slack\/events$/);
    expect(manifest.oauth_config.redirect_urls[0]).toMatch(/\/slack\/oauth_redirect$/);
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...SLACK_BOT_SCOPES].sort());
  });

  it("declares link previews: the example directory's domain, whose links the bot accepts, and link_shared", () => {
    // The example DIRECTORY_BASE_URL of .env.example and the docs; operators put their own domain.
    const links = directoryLinks('https://directory.example.com', EMULATOR_WEB_URL);
    expect(manifest.features.unfurl_domains).toEqual(['directory.example.com']);
    for (const domain of manifest.features.unfurl_domains) expect(links.accepts(domain)).toBe(true);
    expect(manifest.settings.event_subscriptions.bot_events).toContain('link_shared');
    expect(manifest.oauth_config.scopes.bot).toEqual(expect.arrayContaining(['links:read', 'links:write']));
    expect(
      validator()({
        ...manifest,
        features: { ...manifest.features, unfurl_domains: ['Directory.Example.com'] },
      }),
    ).toBe(false);
  });

  it('leaves token rotation off (Slack cannot undo it; SLACK_BOT_TOKEN must not expire), and validates with it on', () => {
    expect(manifest.settings.token_rotation_enabled).toBe(false);
    const rotating = structuredClone(manifest);
    rotating.settings.token_rotation_enabled = true;
    expect(validator()(rotating)).toBe(true);
    expect(
      validator()({ ...manifest, settings: { ...manifest.settings, token_rotation_enabled: 'yes' } }),
    ).toBe(false);
  });
});
