import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAdminLookup } from '../../../adapters/slack/admin-lookup.js';
import { FakeSlackApi } from '../../fakes/slack/fake-slack-api.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';

const TOKEN = 'xoxb-test';
const TTL = 60_000;

describe('Slack admin lookup cache', () => {
  let slack: FakeSlackApi;
  let client: webApi.WebClient;
  let now: number;

  beforeEach(async () => {
    now = 1_700_000_000_000;
    slack = await new FakeSlackApi().start();
    slack.addToken(TOKEN, 'T1');
    for (const id of ['U1', 'U2', 'U3', 'U4']) slack.addUser(id);
    slack.addUser('UADMIN', { is_admin: true });
    client = new webApi.WebClient(TOKEN, { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterEach(async () => {
    await slack.close();
  });

  function lookup(maxEntries?: number) {
    return createAdminLookup({
      logger: createCapturingLogger(),
      ttlMs: TTL,
      now: () => now,
      ...(maxEntries === undefined ? {} : { maxEntries }),
    });
  }

  it('asks Slack once per user within the TTL and again after it', async () => {
    const admin = lookup();
    expect(await admin.isAdminOrOwner(client, 'T1', 'UADMIN')).toBe(true);
    expect(await admin.isAdminOrOwner(client, 'T1', 'UADMIN')).toBe(true);
    expect(slack.callsTo('users.info')).toHaveLength(1);
    now += TTL;
    expect(await admin.isAdminOrOwner(client, 'T1', 'UADMIN')).toBe(true);
    expect(slack.callsTo('users.info')).toHaveLength(2);
  });

  it('drops expired answers when a new one is cached', async () => {
    const admin = lookup();
    await admin.isAdminOrOwner(client, 'T1', 'U1');
    await admin.isAdminOrOwner(client, 'T1', 'U2');
    expect(admin.size).toBe(2);
    now += TTL;
    await admin.isAdminOrOwner(client, 'T1', 'U3');
    expect(admin.size).toBe(1);
  });

  it('keeps at most maxEntries answers, forgetting the oldest first', async () => {
    const admin = lookup(2);
    await admin.isAdminOrOwner(client, 'T1', 'U1');
    now += 1;
    await admin.isAdminOrOwner(client, 'T1', 'U2');
    now += 1;
    await admin.isAdminOrOwner(client, 'T1', 'U3');
    expect(admin.size).toBe(2);
    // U2 and U3 are still cached; U1 was evicted and is asked again.
    await admin.isAdminOrOwner(client, 'T1', 'U2');
    await admin.isAdminOrOwner(client, 'T1', 'U3');
    expect(slack.callsTo('users.info')).toHaveLength(3);
    await admin.isAdminOrOwner(client, 'T1', 'U1');
    expect(slack.callsTo('users.info')).toHaveLength(4);
    expect(admin.size).toBe(2);
  });

  it('answers false without caching when users.info fails', async () => {
    const admin = lookup();
    expect(await admin.isAdminOrOwner(client, 'T1', 'UNKNOWN')).toBe(false);
    expect(admin.size).toBe(0);
  });
});
