import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/observability/create-logger.js';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      callback();
    },
  });
  return { lines, destination };
}

describe('the logger', () => {
  it('writes one JSON object per line in production', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', format: 'json', destination });
    logger.info({ feed: 'comments', items: 3 }, 'polled');
    const entry = JSON.parse(lines[0] ?? '{}');
    expect(entry).toMatchObject({ msg: 'polled', feed: 'comments', items: 3, level: 30 });
  });

  it('never writes a configured secret, wherever it appears', () => {
    const { lines, destination } = capture();
    const secret = 'xoxb-1234-5678-abcdefSECRET';
    const logger = createLogger({ level: 'info', format: 'json', destination, secrets: [secret] });
    logger.info(`posting with ${secret}`);
    logger.error({ err: new Error(`auth failed for token ${secret}`) }, 'failed');
    logger.warn({ url: `https://x.example.com/?t=${encodeURIComponent(secret)}` }, 'request');
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain(secret);
      expect(line).toContain('[REDACTED]');
    }
  });

  it("never writes a webhook's credential, even of a webhook that is no configured secret", () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', format: 'json', destination });
    const urls = [
      'https://discord.com/api/webhooks/112233445566778899/DiscordTokenSecret_part-1',
      'https://hooks.slack.com/services/T0001/B0002/SlackSecret123',
      'https://prod-1.westus.logic.azure.com/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=1&sig=TeamsSig-secret',
      'https://chat.example.com/hooks/abcdefghijklmnopqrstuvwxyz',
    ];
    for (const url of urls)
      logger.warn({ webhookUrl: url, err: new Error(`connect failed: ${url}`) }, `posting to ${url}`);
    const text = lines.join('\n');
    for (const secret of [
      'DiscordTokenSecret_part-1',
      'SlackSecret123',
      'TeamsSig-secret',
      'abcdefghijklmnopqrstuvwxyz',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('/api/webhooks/112233445566778899/[REDACTED]');
  });

  it('redacts token, secret, signature and authorization fields by name', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', format: 'json', destination });
    logger.info(
      {
        token: 'abc123',
        headers: { authorization: 'Bearer abc123', 'x-slack-signature': 'v0=deadbeef' },
        slack: { signingSecret: 'shh', botToken: 'xoxb-x' },
      },
      'incoming',
    );
    const line = lines[0] ?? '';
    expect(line).not.toContain('abc123');
    expect(line).not.toContain('deadbeef');
    expect(line).not.toContain('shh');
    expect(line).not.toContain('xoxb-x');
  });

  it('writes readable lines in pretty mode', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'info', format: 'pretty', destination, isTty: false });
    logger.info({ feed: 'live' }, 'sandbox ready');
    expect(lines.join('\n')).toContain('sandbox ready');
    expect(() => JSON.parse(lines[0] ?? '')).toThrow();
  });

  it('drops lines below the configured level', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'warn', format: 'json', destination });
    logger.info('chatty');
    logger.warn('important');
    expect(lines).toHaveLength(1);
  });
});
