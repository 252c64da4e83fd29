import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdapterContext, ChatAdapter, Destination, Message } from '../../src/ports/index.js';
import { createCapturingLogger } from '../support/capturing-logger.js';
import { type CommandScript, FakeCommandHandler } from '../support/fake-command-handler.js';

/**
 * The ChatAdapter port's promises that hold on every platform, as one suite each adapter's
 * folder runs against its own fake platform (test/fakes). Platform-specific behaviour (blocks,
 * embeds, signatures, rate limits) stays in that folder's own tests.
 */

/** One adapter on its fake platform, not yet started. */
export interface ContractWorld {
  adapter: ChatAdapter;
  /** The HTTP mount the adapter's routes go on (the bot's own server in miniature). */
  http: AdapterContext['http'];
  /** A channel the platform knows and the bot may post in; commands come from it too. */
  channel: Destination;
  /** Deletes `channel` on the platform; absent where channels cannot go (the console). */
  loseChannel?: () => void;
  /**
   * Sends `/directory <text>` from a person in `channel`; resolves with what they were shown.
   * Absent where nobody can send the bot a command (a webhook only receives).
   */
  invoke?(text: string): Promise<string>;
  close(): Promise<void>;
}

export interface ContractSubject {
  platform: string;
  /** Whether a channel can disappear under the bot (deleted, archived); the console's cannot. */
  channelsCanGo: boolean;
  /** Whether people can send `/directory` commands through it (not through a webhook). */
  takesCommands?: boolean;
  open(): Promise<ContractWorld>;
}

/** The core as the contract needs it: `post <id>` is a lookup, and every answer names its question. */
const contractScript: CommandScript = {
  definitions: [
    {
      name: 'post',
      description: 'Show a post',
      usage: 'post <id>',
      examples: ['post 42'],
      options: [{ name: 'post', description: 'The post', type: 'string', required: true, positional: true }],
      managesChannel: false,
    },
  ],
  answer(invocation) {
    if (invocation.text.startsWith('explode')) throw new Error('the core fell over');
    return { visibility: 'ephemeral', text: `Answer to ${invocation.text}`, messages: [], shareable: false };
  },
};

const message: Message = {
  kind: 'post',
  title: 'Contract post',
  url: 'https://directory.example/posts/contract',
  text: 'Delivered by the contract suite',
  fallback: 'Contract post',
};

export function describeChatAdapterContract(subject: ContractSubject): void {
  describe(`the ChatAdapter contract: ${subject.platform}`, () => {
    let world: ContractWorld;
    let commands: FakeCommandHandler;
    let started = false;

    const start = async () => {
      await world.adapter.start({ http: world.http, commands, logger: createCapturingLogger() });
      started = true;
    };

    beforeEach(async () => {
      world = await subject.open();
      commands = new FakeCommandHandler(contractScript);
      started = false;
    });

    afterEach(async () => {
      if (started) await world.adapter.stop();
      await world.close();
    });

    const invoke = (text: string): Promise<string> => {
      if (world.invoke === undefined)
        throw new Error(`${subject.platform} takes commands but its world cannot send one`);
      return world.invoke(text);
    };

    it('names its platform', () => {
      expect(world.adapter.platform).toBe(subject.platform);
      expect(world.channel.platform).toBe(subject.platform);
    });

    it('is ready once started and not after it stopped', async () => {
      await start();
      expect(world.adapter.health()).toEqual({ ready: true });
      await world.adapter.stop();
      started = false;
      const health = world.adapter.health();
      expect(health.ready).toBe(false);
      expect(health.reason).toEqual(expect.any(String));
    });

    it('declares pacing it can keep: positive rates and room for at least one message', () => {
      const { perDestination, perWorkspace, global } = world.adapter.pacing;
      const limits = [perDestination, perWorkspace, global].flat().filter((limit) => limit !== undefined);
      // Some limit beyond one destination's, or a burst to many channels would go out at once.
      expect(perWorkspace ?? global).toBeDefined();
      for (const limit of limits) {
        if ('windowMs' in limit) {
          expect(limit.windowMs).toBeGreaterThan(0);
          expect(limit.limit).toBeGreaterThanOrEqual(1);
        } else {
          expect(limit.ratePerSecond).toBeGreaterThan(0);
          expect(limit.burst).toBeGreaterThanOrEqual(1);
        }
      }
    });

    it('delivers a message to a channel and reports it delivered', async () => {
      await start();
      const outcome = await world.adapter.deliver(world.channel, message, { idempotencyKey: 'contract-1' });
      expect(outcome).toMatchObject({ status: 'delivered' });
    });

    // Registered only where channels can go, so the console's report shows no skipped test.
    if (subject.channelsCanGo)
      it('reports a channel that is gone as rejected for the destination, so its subscriptions pause', async () => {
        await start();
        world.loseChannel?.();
        expect(world.loseChannel).toBeDefined();
        const outcome = await world.adapter.deliver(world.channel, message, { idempotencyKey: 'contract-2' });
        expect(outcome).toMatchObject({ status: 'rejected', code: expect.any(String) });
        expect(outcome.status === 'rejected' && (outcome.scope ?? 'destination')).toBe('destination');
      });

    // Registered only where commands come in, so a webhook's report shows no skipped test.
    if (subject.takesCommands === false) return;

    it('answers a command through the handler, from the channel it was sent in', async () => {
      await start();
      const shown = await invoke('post 42');
      expect(commands.invocations).toHaveLength(1);
      expect(commands.invocations[0]).toMatchObject({
        platform: subject.platform,
        channelId: world.channel.channelId,
        text: 'post 42',
      });
      expect(shown).toContain('Answer to post 42');
    });

    it('tells the person when the core fails, and stays ready', async () => {
      await start();
      const shown = await invoke('explode');
      expect(commands.invocations.map((i) => i.text)).toEqual(['explode']);
      expect(shown).toMatch(/went wrong|failed/i);
      expect(world.adapter.health()).toEqual({ ready: true });
    });
  });
}
