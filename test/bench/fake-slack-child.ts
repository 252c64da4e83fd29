/**
 * Child-process entry: a FakeSlackApi in its own process, so the fake's CPU is not counted as
 * the bot's (the scale-out benchmark and the worker spike measure one process's ceiling).
 */
import { FakeSlackApi } from '../fakes/slack/fake-slack-api.js';
import { type FakeSlackChildRequest, type FakeSlackChildSetup, fakeChannelId } from './fake-slack-process.js';

const setup = JSON.parse(process.argv[2] ?? '{}') as FakeSlackChildSetup;
const slack = await new FakeSlackApi().start();
slack.addToken(setup.token, 'T1');
for (let i = 0; i < setup.channels.count; i += 1) slack.addChannel(fakeChannelId(setup, i));
process.send?.({ type: 'ready', apiUrl: slack.apiUrl });

process.on('message', (request: FakeSlackChildRequest) => {
  if (request.type === 'count') {
    const posted: Record<string, number> = {};
    const times = new Map<string, number[]>();
    let status429 = 0;
    let firstAt: number | undefined;
    let lastAt: number | undefined;
    for (const call of slack.calls) {
      if (call.status === 429) status429 += 1;
      if (call.method !== 'chat.postMessage' || call.response['ok'] !== true) continue;
      const channel = String(call.params['channel']);
      posted[channel] = (posted[channel] ?? 0) + 1;
      times.set(channel, [...(times.get(channel) ?? []), call.at]);
      firstAt = Math.min(firstAt ?? call.at, call.at);
      lastAt = Math.max(lastAt ?? call.at, call.at);
    }
    const twice = Object.fromEntries([...times].filter(([, at]) => at.length > 1));
    const cpu = process.cpuUsage();
    process.send?.({
      type: 'count',
      posted,
      status429,
      cpuMs: (cpu.user + cpu.system) / 1000,
      twice,
      ...(firstAt === undefined ? {} : { firstAt, lastAt }),
    });
  } else if (request.type === 'close') {
    void slack.close().then(() => process.disconnect?.());
  }
});
