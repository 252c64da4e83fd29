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

  it('never widens a base URL on a shared hosting domain or a country registry to all of its tenants', () => {
    const heroku = directoryLinks('https://api.herokuapp.com', EMULATOR_WEB_URL);
    expect(heroku.primaryHost).toBe('api.herokuapp.com');
    expect(heroku.accepts('api.herokuapp.com')).toBe(true);
    for (const host of ['herokuapp.com', 'evil.herokuapp.com', 'www.herokuapp.com'])
      expect(heroku.accepts(host), host).toBe(false);

    const tenant = directoryLinks('https://www.mybot.vercel.app', EMULATOR_WEB_URL);
    expect(tenant.primaryHost).toBe('mybot.vercel.app');
    expect(tenant.accepts('mybot.vercel.app')).toBe(true);
    expect(tenant.accepts('evil.vercel.app')).toBe(false);

    for (const [base, other] of [
      ['https://www.co.uk', 'evil.co.uk'],
      ['https://api.com.au', 'evil.com.au'],
      ['https://www.github.io', 'evil.github.io'],
    ] as const) {
      const links = directoryLinks(base, EMULATOR_WEB_URL);
      expect(links.accepts(new URL(base).hostname), base).toBe(true);
      expect(links.accepts(other), other).toBe(false);
    }

    // A company's own name under a country registry is still its site.
    const british = directoryLinks('https://api.directory.co.uk', EMULATOR_WEB_URL);
    expect(british.primaryHost).toBe('directory.co.uk');
    expect(british.accepts('www.directory.co.uk')).toBe(true);
    expect(british.accepts('evil.co.uk')).toBe(false);
    // And a two-label site keeps working: api.example.com serves links on example.com.
    expect(directoryLinks('https://api.example.com', EMULATOR_WEB_URL).accepts('www.example.com')).toBe(true);
  });
});
