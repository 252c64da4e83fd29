/**
 * `npm run demo:workers`: the many-process shape of ADR 005 on one machine. The directory
 * emulator, a fake Slack and a fake Discord run here; a `web` process (`directory-bot start`,
 * polling, no in-process worker) and two `directory-bot worker` processes run as real node
 * processes on Redis (DEMO_REDIS_URL, default redis://127.0.0.1:6379/15, flushed first). It makes
 * a burst of comments, SIGKILLs a worker half-way, starts another, and prints what each channel
 * got: every message once, in order.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { startEmulator } from '../src/emulator/index.js';
import { FakeDiscordRest } from '../test/fakes/discord/fake-discord-rest.js';
import { FakeSlackApi } from '../test/fakes/slack/fake-slack-api.js';

const CLI = fileURLToPath(new URL('../dist/src/cli/main.js', import.meta.url));
const REDIS_URL = process.env['DEMO_REDIS_URL'] ?? 'redis://127.0.0.1:6379/15';
// Slack paces each channel to about one message a second, as Slack itself does: a burst of 30 takes ~30 s.
const BURST = Number(process.env['DEMO_BURST'] ?? 30);
const SLACK_TOKEN = 'xoxb-demo';
const DISCORD_TOKEN = 'demo-discord-token';
const SLACK_CHANNELS = ['C0DEMO1', 'C0DEMO2'];
const DISCORD_CHANNELS = ['300000000000000901', '300000000000000902'];

/** The demo's narration, on stdout beside the processes' own warnings. */
const say = (line: string) => process.stdout.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const redis = new Redis(REDIS_URL);
  await redis.flushdb();
  redis.disconnect();
  const emulator = await startEmulator({ port: 0, seed: 27 });
  const slack = await new FakeSlackApi({ burst: 1000 }).start();
  slack.addToken(SLACK_TOKEN, 'T0DEMO');
  for (const channel of SLACK_CHANNELS) slack.addChannel(channel);
  const discord = new FakeDiscordRest({ token: DISCORD_TOKEN, bucket: { limit: 1000, windowMs: 1000 } });
  await discord.listen();
  for (const channel of DISCORD_CHANNELS) discord.addChannel(channel);

  const env = {
    ...process.env,
    PORT: '0',
    LOG_FORMAT: 'json',
    LOG_LEVEL: 'warn',
    DIRECTORY_BASE_URL: emulator.url,
    DIRECTORY_TOKEN: 'dev-token',
    STORE_URL: REDIS_URL,
    POLL_MIN_INTERVAL_S: '1',
    SUBSCRIPTIONS: [
      ...SLACK_CHANNELS.map((c) => `slack:${c}=comments`),
      ...DISCORD_CHANNELS.map((c) => `discord:${c}=comments`),
    ].join(';'),
    SLACK_BOT_TOKEN: SLACK_TOKEN,
    SLACK_SIGNING_SECRET: 'demo-signing-secret',
    SLACK_API_URL: slack.apiUrl,
    DISCORD_TOKEN,
    DISCORD_APPLICATION_ID: '100000000000000001',
    DISCORD_API_URL: discord.url,
    DISCORD_GATEWAY: 'false',
    WORKER_IN_WEB: 'false',
  };
  const children: ChildProcess[] = [];
  const run = (command: string) => {
    const child = spawn(process.execPath, [CLI, command], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    children.push(child);
    say(`started ${command} (pid ${child.pid})`);
    return child;
  };
  const slackMarkers = (channel: string) =>
    slack
      .callsTo('chat.postMessage')
      .filter((c) => c.params['channel'] === channel && c.response['ok'])
      .flatMap(
        (c) =>
          JSON.stringify(c.params)
            .match(/demo-\d+/)
            ?.slice(0, 1) ?? [],
      );
  const discordMarkers = (channel: string) =>
    (discord.messages.get(channel) ?? []).flatMap(
      (m) =>
        JSON.stringify(m.body)
          .match(/demo-\d+/)
          ?.slice(0, 1) ?? [],
    );
  const counts = () => [
    ...SLACK_CHANNELS.map((c) => ({ channel: `slack:${c}`, markers: slackMarkers(c) })),
    ...DISCORD_CHANNELS.map((c) => ({ channel: `discord:${c}`, markers: discordMarkers(c) })),
  ];

  try {
    run('start');
    await sleep(6000); // the first poll notes what exists; only what comes after is posted
    const workers = [run('worker'), run('worker')];
    await sleep(3000);
    const markers = Array.from({ length: BURST }, (_, i) => `demo-${String(i).padStart(4, '0')}`);
    for (const marker of markers) emulator.admin.addComment({ body: marker });
    say(`added a burst of ${BURST} comments, to 4 channels`);
    const total = () => counts().reduce((sum, c) => sum + c.markers.length, 0);
    while (total() < (BURST * 4) / 3) await sleep(50);
    workers[0]!.kill('SIGKILL');
    say(`SIGKILLed worker ${workers[0]!.pid} after ${total()} deliveries; starting another`);
    run('worker');
    const deadline = Date.now() + 60_000;
    while (total() < BURST * 4 && Date.now() < deadline) await sleep(200);
    await sleep(1000);
    let ok = true;
    for (const { channel, markers: got } of counts()) {
      const once = got.length === markers.length && got.every((m, i) => m === markers[i]);
      ok &&= once;
      say(
        `${channel}: ${got.length} of ${markers.length} ${once ? 'each once, in order' : 'NOT each once in order'}`,
      );
    }
    say(ok ? 'nothing lost, nothing twice.' : 'MISMATCH: see above.');
    process.exitCode = ok ? 0 : 1;
  } finally {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(
      children.map((child) =>
        child.exitCode === null && child.signalCode === null
          ? new Promise((resolve) => child.once('exit', resolve))
          : undefined,
      ),
    );
    await slack.close();
    await discord.close();
    await emulator.close();
  }
}

await main();
