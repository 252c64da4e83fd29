import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { SECRET_PLACEHOLDER, withoutSecrets } from '../../src/workspaces/without-secrets.js';
import { parseWorkspaceRef } from '../../src/workspaces/workspace-ref.js';

describe('workspace references', () => {
  it('reads slack:<team or enterprise id> and discord:<server id>', () => {
    expect(parseWorkspaceRef('slack:T0123ABCD')).toEqual({ platform: 'slack', id: 'T0123ABCD' });
    expect(parseWorkspaceRef('slack:E0123ABCD')).toEqual({ platform: 'slack', id: 'E0123ABCD' });
    expect(parseWorkspaceRef('discord:123456789012345678')).toEqual({
      platform: 'discord',
      id: '123456789012345678',
    });
  });

  it('refuses anything else with a UsageError that says what fits', () => {
    for (const bad of ['T0123ABCD', 'teams:T1', 'slack:', 'slack:C0123', 'discord:12', 'discord:abc', '']) {
      expect(() => parseWorkspaceRef(bad)).toThrow(UsageError);
    }
    expect(() => parseWorkspaceRef('discord:12')).toThrow(/Discord server id/);
  });
});

describe('exports without secrets', () => {
  it('replaces token fields, webhook URLs and token-shaped values, and keeps the rest', () => {
    const installation = {
      team: { id: 'T1', name: 'Team' },
      bot: { token: 'xoxb-1', refreshToken: 'xoxe-1', expiresAt: 5, scopes: ['chat:write'] },
      user: { token: 'xoxp-1', id: 'U1' },
      incomingWebhook: { url: 'https://hooks.slack.com/services/T/B/x', channel: '#general' },
      somethingNew: 'xoxb-hidden-in-a-new-field',
    };
    expect(withoutSecrets(installation)).toEqual({
      team: { id: 'T1', name: 'Team' },
      bot: {
        token: SECRET_PLACEHOLDER,
        refreshToken: SECRET_PLACEHOLDER,
        expiresAt: 5,
        scopes: ['chat:write'],
      },
      user: { token: SECRET_PLACEHOLDER, id: 'U1' },
      incomingWebhook: { url: SECRET_PLACEHOLDER, channel: '#general' },
      somethingNew: SECRET_PLACEHOLDER,
    });
  });
});
