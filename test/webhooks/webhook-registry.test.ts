import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/ports/index.js';
import { createSecretSealer, createStore } from '../../src/store/index.js';
import { WebhookRegistry } from '../../src/webhooks/index.js';
import { makeTempDir } from '../support/temp-dir.js';

const URL = 'https://discord.com/api/webhooks/112233445566778899/TOKEN-secret-part_abc';
const key = (byte: number) => Buffer.alloc(32, byte);

describe('the webhook registry', () => {
  const temps: { cleanup(): void }[] = [];
  afterEach(() => {
    for (const temp of temps.splice(0)) temp.cleanup();
  });

  function open(options: { sealer?: boolean; keyByte?: number } = {}) {
    const temp = makeTempDir();
    temps.push(temp);
    const path = join(temp.path, 'store.sqlite');
    const store = createStore({ url: `sqlite://${path}` });
    const sealer =
      options.sealer === false ? undefined : createSecretSealer({ current: key(options.keyByte ?? 7) });
    const registry = (configured = []) =>
      new WebhookRegistry({ keyv: store.keyv, leases: store.leases, clock: systemClock, sealer, configured });
    return { store, path, registry };
  }

  it('keeps a stored URL sealed: the store file holds no byte of it, and it opens for delivery', async () => {
    const { store, path, registry } = open();
    const webhooks = registry();
    await webhooks.add({
      name: 'news',
      kind: 'discord',
      platform: 'discord-webhook',
      url: URL,
      shown: 'masked',
      addedBy: 'cli',
    });
    await store.close();
    const raw = readFileSync(path);
    expect(raw.includes(Buffer.from('TOKEN-secret-part_abc'))).toBe(false);
    const reopened = createStore({ url: `sqlite://${path}` });
    const again = new WebhookRegistry({
      keyv: reopened.keyv,
      leases: reopened.leases,
      clock: systemClock,
      sealer: createSecretSealer({ current: key(7) }),
      configured: [],
    });
    expect(await again.endpoint('discord-webhook', 'news')).toEqual({ name: 'news', url: URL });
    expect(await again.endpoint('teams-webhook', 'news')).toBeUndefined();
    expect(await again.list()).toEqual([
      { name: 'news', kind: 'discord', platform: 'discord-webhook', shown: 'masked', source: 'store' },
    ]);
    await reopened.close();
  });

  it('refuses to store a URL without STORE_ENCRYPTION_KEY, naming it', async () => {
    const { store, registry } = open({ sealer: false });
    await expect(
      registry().add({
        name: 'news',
        kind: 'discord',
        platform: 'discord-webhook',
        url: URL,
        shown: 'm',
        addedBy: 'cli',
      }),
    ).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringMatching(/^STORE_ENCRYPTION_KEY: /),
    });
    await store.close();
  });

  it('lets the environment win over the store, and refuses to store a name the environment configures', async () => {
    const { store, registry } = open();
    const configured = [
      {
        name: 'news',
        kind: 'teams',
        platform: 'teams-webhook',
        url: 'https://x/workflows/a',
        shown: 'm',
        variable: 'WEBHOOK_NEWS_URL',
      },
    ];
    const webhooks = registry(configured as never);
    await expect(
      webhooks.add({
        name: 'news',
        kind: 'discord',
        platform: 'discord-webhook',
        url: URL,
        shown: 'm',
        addedBy: 'cli',
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('WEBHOOK_NEWS_URL') });
    expect(await webhooks.endpoint('teams-webhook', 'news')).toEqual({
      name: 'news',
      url: 'https://x/workflows/a',
    });
    await store.close();
  });

  it('forgets a removed webhook at once in this process', async () => {
    const { store, registry } = open();
    const webhooks = registry();
    await webhooks.add({
      name: 'news',
      kind: 'discord',
      platform: 'discord-webhook',
      url: URL,
      shown: 'm',
      addedBy: 'cli',
    });
    expect(await webhooks.endpoint('discord-webhook', 'news')).toBeDefined();
    await webhooks.remove('news');
    expect(await webhooks.endpoint('discord-webhook', 'news')).toBeUndefined();
    await store.close();
  });
});
