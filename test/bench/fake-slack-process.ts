import { type ChildProcess, fork } from 'node:child_process';

export interface FakeSlackChildSetup {
  token: string;
  /** Channels `C<from>` … `C<from + count − 1>` (a list of 50k ids would not fit in argv). */
  channels: { from: number; count: number };
}

/** The id of the `index`-th channel of a setup. */
export function fakeChannelId(setup: FakeSlackChildSetup, index: number): string {
  return `C${String(setup.channels.from + index)}`;
}

/** The id of the `index`-th Discord channel of a setup (fake-discord-child.ts): a snowflake. */
export function fakeDiscordChannelId(setup: FakeSlackChildSetup, index: number): string {
  return String(310_000_000_000_000_000n + BigInt(setup.channels.from + index));
}

export type FakeSlackChildRequest = { type: 'count' } | { type: 'close' };

export interface FakeSlackCounts {
  /** Successful chat.postMessage calls per channel. */
  posted: Record<string, number>;
  status429: number;
  /** CPU the fake's process has used since it started, ms: whether the test bed was the limit. */
  cpuMs: number;
  /** When each channel that got more than one message got them (the fake's clock, epoch ms). */
  twice: Record<string, number[]>;
  /** The first and the last successful chat.postMessage (epoch ms), once there is one. */
  firstAt?: number;
  lastAt?: number;
  /**
   * Discord only (fake-discord-child.ts): channels where a post repeated an earlier nonce and got
   * the earlier message back instead of a second one, with the times of every accepted post.
   */
  nonceRepeated?: Record<string, number[]>;
  /** Discord only: the 429s by request (method and route), to tell the deliveries' from the rest. */
  status429By?: Record<string, number>;
}

export interface FakeSlackProcess {
  apiUrl: string;
  pid: number | undefined;
  counts(): Promise<FakeSlackCounts>;
  close(): Promise<void>;
}

/** Starts `fake-slack-child.ts` and resolves once its server listens. */
export function startFakeSlackProcess(setup: FakeSlackChildSetup): Promise<FakeSlackProcess> {
  return startFakeProcess(new URL('./fake-slack-child.ts', import.meta.url), setup);
}

/** Starts a fake's child entry (it answers `count` and `close`) and resolves once its server listens. */
export async function startFakeProcess(entry: URL, setup: FakeSlackChildSetup): Promise<FakeSlackProcess> {
  const child = fork(entry, [JSON.stringify(setup)], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await reply<{ apiUrl: string }>(child, 'ready');
  return {
    apiUrl: ready.apiUrl,
    pid: child.pid,
    counts: async () => {
      const answer = reply<FakeSlackCounts>(child, 'count');
      child.send({ type: 'count' } satisfies FakeSlackChildRequest);
      return answer;
    },
    close: async () => {
      if (child.exitCode !== null || !child.connected) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ type: 'close' } satisfies FakeSlackChildRequest);
      await exited;
    },
  };
}

function reply<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string } & T) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`fake Slack exited (${code}) before "${type}"`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
