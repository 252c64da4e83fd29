/**
 * Child-process entry: a FakeDiscordRest in its own process (the workers' SIGKILL burst), with
 * Discord's limits (5 per 5 s per channel, 50 per second per bot) and its enforced nonce. Answers
 * `count` as fake-slack-child.ts does, plus the posts a repeated nonce turned into the earlier message.
 */
import { FakeDiscordRest } from '../fakes/discord/fake-discord-rest.js';
import {
  type FakeSlackChildRequest,
  type FakeSlackChildSetup,
  fakeDiscordChannelId,
} from './fake-slack-process.js';

const setup = JSON.parse(process.argv[2] ?? '{}') as FakeSlackChildSetup;
{
  const discord = new FakeDiscordRest({ token: setup.token });
  await discord.listen();
  for (let i = 0; i < setup.channels.count; i += 1) discord.addChannel(fakeDiscordChannelId(setup, i));
  process.send?.({ type: 'ready', apiUrl: discord.url });

  process.on('message', (request: FakeSlackChildRequest) => {
    if (request.type === 'count') {
      const posted: Record<string, number> = {};
      for (const [channel, messages] of discord.messages) posted[channel] = messages.length;
      const times = new Map<string, number[]>();
      let status429 = 0;
      const status429By: Record<string, number> = {};
      let firstAt: number | undefined;
      let lastAt: number | undefined;
      for (const call of discord.calls) {
        if (call.status === 429) {
          status429 += 1;
          status429By[`${call.method} ${call.route}`] =
            (status429By[`${call.method} ${call.route}`] ?? 0) + 1;
        }
        if (call.method !== 'POST' || !/^\/channels\/\d+\/messages$/.test(call.path) || call.status !== 200)
          continue;
        const channel = call.path.split('/')[2]!;
        times.set(channel, [...(times.get(channel) ?? []), call.at]);
        firstAt = Math.min(firstAt ?? call.at, call.at);
        lastAt = Math.max(lastAt ?? call.at, call.at);
      }
      const twice = Object.fromEntries([...times].filter(([channel]) => (posted[channel] ?? 0) > 1));
      const nonceRepeated = Object.fromEntries(
        [...times].filter(([channel, at]) => at.length > (posted[channel] ?? 0)),
      );
      const cpu = process.cpuUsage();
      process.send?.({
        type: 'count',
        posted,
        status429,
        status429By,
        cpuMs: (cpu.user + cpu.system) / 1000,
        twice,
        nonceRepeated,
        ...(firstAt === undefined ? {} : { firstAt, lastAt }),
      });
    } else if (request.type === 'close') {
      void discord.close().then(() => process.disconnect?.());
    }
  });
}
