import { describe, expect, it } from 'vitest';
import { directoryIdFor, directoryKeys, SANDBOX_DIRECTORY_ID } from '../../src/store/directory-keys.js';

describe('directory ids', () => {
  it('names one directory the same however its URL is written', () => {
    const id = directoryIdFor('https://directory.example.com');
    for (const spelling of [
      'https://directory.example.com/',
      'https://Directory.Example.com',
      'HTTPS://directory.example.com:443/',
      'https://user:secret@directory.example.com/?token=x#top',
    ]) {
      expect(directoryIdFor(spelling), spelling).toBe(id);
    }
    expect(id).toMatch(/^[0-9a-f]{12}$/);
  });

  it('tells apart directories on another host, port, scheme or path', () => {
    const ids = [
      'https://directory.example.com',
      'https://staging.directory.example.com',
      'https://directory.example.com:8443',
      'http://directory.example.com',
      'https://directory.example.com/eu',
      'http://127.0.0.1:4010',
      'http://127.0.0.1:4011',
    ].map(directoryIdFor);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(SANDBOX_DIRECTORY_ID);
  });

  it("keeps every piece of one directory's state under its prefix, and its poller lease apart", () => {
    const keys = directoryKeys('abc');
    for (const key of [
      keys.feedState('comments'),
      keys.feedHealth,
      keys.outboxIndex,
      keys.outboxQueue('slack:C1'),
      keys.delivered('slack:C1', 'live:new:111'),
    ]) {
      expect(key.startsWith(keys.prefix), key).toBe(true);
      expect(key.startsWith(directoryKeys('ab').prefix), key).toBe(false);
    }
    expect(keys.pollerLease).not.toBe(directoryKeys(SANDBOX_DIRECTORY_ID).pollerLease);
  });
});
