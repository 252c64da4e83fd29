import { describe, expect, it } from 'vitest';
import { directoryLinks } from '../../src/commands/index.js';
import { EMULATOR_WEB_URL } from '../../src/emulator/index.js';

describe('which links name directory posts', () => {
  it('accepts the real service’s site, with or without its api. and www. hosts, and names it when refusing', () => {
    const links = directoryLinks('https://api.directory.example.com', EMULATOR_WEB_URL);
    for (const host of ['directory.example.com', 'www.directory.example.com', 'API.Directory.Example.com.'])
      expect(links.accepts(host), host).toBe(true);
    for (const host of [
      'evil.example',
      'example.com',
      'directory.example.com.evil.example',
      'notdirectory.example.com',
    ])
      expect(links.accepts(host), host).toBe(false);
    expect(links.primaryHost).toBe('directory.example.com');
  });

  it('accepts the emulator’s links (a reserved .test site) and a local emulator’s own address', () => {
    const sandbox = directoryLinks(undefined, EMULATOR_WEB_URL);
    expect(sandbox.primaryHost).toBe('www.example-directory.test');
    expect(sandbox.accepts('www.example-directory.test')).toBe(true);
    expect(sandbox.accepts('evil.example')).toBe(false);

    const local = directoryLinks('http://127.0.0.1:4010', EMULATOR_WEB_URL);
    expect(local.primaryHost).toBe('www.example-directory.test');
    expect(local.accepts('127.0.0.1')).toBe(true);
    expect(local.accepts('127.0.0.2')).toBe(false);
    expect(directoryLinks('http://[::1]:4010', EMULATOR_WEB_URL).accepts('[::1]')).toBe(true);
  });
});
