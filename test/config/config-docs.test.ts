import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderEnvExample, withConfigTable } from '../../src/config/config-docs.js';
import { VARIABLES } from '../../src/config/variables.js';

describe('configuration documentation', () => {
  it('.env.example documents every variable exactly as the schema defines it', () => {
    expect(readFileSync('.env.example', 'utf8')).toBe(renderEnvExample());
  });

  it("the README's configuration table agrees with the schema (run npm run config:docs)", () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toBe(withConfigTable(readme));
    for (const variable of VARIABLES) expect(readme).toContain(`| \`${variable.name}\` |`);
  });

  it('documents the public contract variables the issues name', () => {
    const names = VARIABLES.map((v) => v.name);
    for (const required of [
      'PORT',
      'LOG_LEVEL',
      'STORE_URL',
      'DIRECTORY_BASE_URL',
      'DIRECTORY_TOKEN',
      'SUBSCRIPTIONS',
      'ADMIN_USER_IDS',
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'SLACK_APP_TOKEN',
      'SLACK_API_URL',
      'DISCORD_TOKEN',
      'DISCORD_APPLICATION_ID',
      'DISCORD_PUBLIC_KEY',
      'DISCORD_API_URL',
      'POLL_MIN_INTERVAL_S',
    ]) {
      expect(names).toContain(required);
    }
  });
});
