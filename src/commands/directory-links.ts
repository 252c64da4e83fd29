import { isIP } from 'node:net';
import type { CommandReply } from '../ports/index.js';
import { postLink } from './arg-formats.js';
import type { ParsedArgs } from './command-spec.js';
import { errorReply } from './replies.js';

/**
 * Which links are the directory's. `post https://evil.example/posts/x` must not be looked up as
 * if it named a directory post: the answer would show some other post under a link that points
 * elsewhere. Only links on the configured directory's site are read; any other host is refused
 * with a reply that names the one to use.
 */
export interface DirectoryLinks {
  /** The host to suggest when a link is refused, e.g. `www.example-directory.test`. */
  readonly primaryHost: string;
  /** Whether a link on this host names a directory record. */
  accepts(hostname: string): boolean;
}

/** `WWW.Example.COM.` and `[::1]` as the comparisons below expect them. */
function normalHost(hostname: string): string {
  return hostname
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[(.*)\]$/, '$1');
}

/** An address or a one-label name (`localhost`): no site around it, only the host itself counts. */
function isBareHost(host: string): boolean {
  return isIP(host) !== 0 || !host.includes('.');
}

/**
 * Domains under which unrelated people get names of their own: hosting platforms that hand out
 * `<app>.<platform>` to every customer. A base URL on one of them says nothing about the
 * platform's other names, so `api.`/`www.` is never stripped down to one of these. (A short list
 * of the platforms a bot like this is commonly run against, not the whole Public Suffix List;
 * country registries' second levels such as `co.uk` are recognised by shape below.)
 */
const SHARED_HOSTING_DOMAINS = new Set([
  'herokuapp.com',
  'github.io',
  'gitlab.io',
  'vercel.app',
  'netlify.app',
  'fly.dev',
  'onrender.com',
  'pages.dev',
  'workers.dev',
  'appspot.com',
  'azurewebsites.net',
  'cloudfront.net',
  'amazonaws.com',
  'firebaseapp.com',
  'web.app',
  'railway.app',
  'ngrok.io',
  'ngrok-free.app',
]);

/** Second levels country registries register names under: `co.uk`, `com.au`, `ac.jp`, `gov.br` … */
const REGISTRY_SECOND_LEVELS = new Set([
  'ac',
  'co',
  'com',
  'edu',
  'go',
  'gov',
  'ltd',
  'ne',
  'net',
  'or',
  'org',
  'plc',
]);

/** Whether `domain` is one under which unrelated parties hold names (see above). */
function isSharedDomain(domain: string): boolean {
  const labels = domain.split('.');
  if (labels.length < 2) return true;
  if (SHARED_HOSTING_DOMAINS.has(domain)) return true;
  return labels.length === 2 && REGISTRY_SECOND_LEVELS.has(labels[0] ?? '') && (labels[1] ?? '').length === 2;
}

/**
 * The site a directory host belongs to: the host without a leading `api.` or `www.` label, so a
 * service at `api.directory.example` accepts links on `directory.example` and its subdomains
 * (`www.directory.example`), where its web pages live. Never a shared domain: a service at
 * `api.herokuapp.com` or `www.co.uk` is its own site, or every tenant's links would be accepted.
 */
function siteOf(host: string): string {
  const stripped = host.replace(/^(api|www)\./, '');
  return stripped !== host && !isSharedDomain(stripped) ? stripped : host;
}

/**
 * The links `/directory post <link>` accepts:
 * - those on the site of `baseUrl` (the configured DIRECTORY_BASE_URL; undefined in the sandbox,
 *   whose embedded emulator has no address worth pasting), and
 * - those on the emulator's web site (`emulatorWebUrl`), which is where every link in emulator
 *   data points. It is always accepted: it sits under the reserved `.test` top-level domain, so it
 *   can never be someone else's site, and it keeps links working against an emulator run on its
 *   own (`directory-bot emulator`) at any address.
 */
export function directoryLinks(baseUrl: string | undefined, emulatorWebUrl: string): DirectoryLinks {
  const emulatorHost = normalHost(new URL(emulatorWebUrl).hostname);
  const sites = [siteOf(emulatorHost)];
  const exact: string[] = [];
  let primaryHost = emulatorHost;
  if (baseUrl !== undefined) {
    const host = normalHost(new URL(baseUrl).hostname);
    if (isBareHost(host)) {
      // An address on this machine or network: an emulator, whose links are on its web site.
      exact.push(host);
    } else {
      sites.push(siteOf(host));
      primaryHost = siteOf(host);
    }
  }
  return {
    primaryHost,
    accepts(hostname) {
      const host = normalHost(hostname);
      return exact.includes(host) || sites.some((site) => host === site || host.endsWith(`.${site}`));
    },
  };
}

/** Options that take a directory link, and what their link names (for the refusal). */
const LINK_OPTIONS: Readonly<Record<string, string>> = { post: 'post', event: 'live event' };

/**
 * The reply refusing a link to another site in a command's post or live-event reference, or
 * undefined when there is no link or it is the directory's.
 */
export function foreignLinkReply(args: ParsedArgs, links: DirectoryLinks): CommandReply | undefined {
  for (const [option, what] of Object.entries(LINK_OPTIONS)) {
    const value = args[option];
    if (typeof value !== 'string') continue;
    const url = postLink(value);
    if (url === undefined || links.accepts(url.hostname)) continue;
    return errorReply(
      'command_usage',
      `${url.hostname} is not the directory, so that link was not looked up. ` +
        `Paste a link from ${links.primaryHost}, or give the ${what}'s id or slug.`,
    );
  }
  return undefined;
}
