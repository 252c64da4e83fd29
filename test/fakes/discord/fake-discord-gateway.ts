import type { AddressInfo } from 'node:net';
import { type WebSocket, WebSocketServer } from 'ws';

/** Gateway opcodes (developers/topics/opcodes-and-status-codes.mdx). */
const Op = { Dispatch: 0, Heartbeat: 1, Identify: 2, Hello: 10, HeartbeatAck: 11 } as const;

export interface FakeGatewayOptions {
  applicationId: string;
  botUserId?: string;
  heartbeatIntervalMs?: number;
}

/**
 * A fake Discord gateway (JSON encoding, no compression) on 127.0.0.1: HELLO on connect,
 * READY after IDENTIFY, ACK for every heartbeat, and `dispatch()` to push events such as
 * INTERACTION_CREATE to every identified session.
 */
export class FakeDiscordGateway {
  readonly identifies: { token: string; intents: number; shard?: [number, number] }[] = [];
  heartbeats = 0;
  readonly #server: WebSocketServer;
  readonly #options: Required<FakeGatewayOptions>;
  readonly #sessions = new Set<WebSocket>();
  #sequence = 0;
  #identified: Array<() => void> = [];

  constructor(options: FakeGatewayOptions) {
    this.#options = { botUserId: '100000000000000099', heartbeatIntervalMs: 41_250, ...options };
    this.#server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    this.#server.on('connection', (socket) => this.#accept(socket));
  }

  async listening(): Promise<string> {
    if (!this.#server.address()) await new Promise((resolve) => this.#server.once('listening', resolve));
    return this.url;
  }

  get url(): string {
    const { port } = this.#server.address() as AddressInfo;
    return `ws://127.0.0.1:${port}`;
  }

  /** Resolves once a session has identified (and been sent READY). */
  whenIdentified(): Promise<void> {
    if (this.#sessions.size > 0) return Promise.resolve();
    return new Promise((resolve) => this.#identified.push(resolve));
  }

  dispatch(event: string, data: unknown): void {
    this.#sequence += 1;
    const frame = JSON.stringify({ op: Op.Dispatch, t: event, s: this.#sequence, d: data });
    for (const socket of this.#sessions) socket.send(frame);
  }

  /** The bot is removed from a server (kicked, or the server deleted): GUILD_DELETE without `unavailable`. */
  removeFromGuild(guildId: string): void {
    this.dispatch('GUILD_DELETE', { id: guildId });
  }

  /** A server's outage: GUILD_DELETE with `unavailable: true`; the bot is still in it. */
  guildOutage(guildId: string): void {
    this.dispatch('GUILD_DELETE', { id: guildId, unavailable: true });
  }

  async close(): Promise<void> {
    for (const client of this.#server.clients) client.terminate();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #send(socket: WebSocket, payload: unknown): void {
    socket.send(JSON.stringify(payload));
  }

  #accept(socket: WebSocket): void {
    this.#send(socket, {
      op: Op.Hello,
      d: { heartbeat_interval: this.#options.heartbeatIntervalMs },
      s: null,
      t: null,
    });
    socket.on('close', () => this.#sessions.delete(socket));
    socket.on('message', (raw) => {
      const packet = JSON.parse(raw.toString()) as { op: number; d: unknown };
      if (packet.op === Op.Heartbeat) {
        this.heartbeats += 1;
        this.#send(socket, { op: Op.HeartbeatAck, d: null, s: null, t: null });
      } else if (packet.op === Op.Identify) {
        this.identifies.push(packet.d as (typeof this.identifies)[number]);
        this.#ready(socket);
      }
    });
  }

  #ready(socket: WebSocket): void {
    this.#sequence += 1;
    this.#send(socket, {
      op: Op.Dispatch,
      t: 'READY',
      s: this.#sequence,
      d: {
        v: 10,
        user: {
          id: this.#options.botUserId,
          username: 'directory-bot',
          discriminator: '0',
          global_name: null,
          avatar: null,
          bot: true,
          flags: 0,
        },
        guilds: [],
        session_id: 'fake-session',
        resume_gateway_url: this.url,
        shard: [0, 1],
        application: { id: this.#options.applicationId, flags: 0 },
      },
    });
    this.#sessions.add(socket);
    for (const resolve of this.#identified.splice(0)) resolve();
  }
}
