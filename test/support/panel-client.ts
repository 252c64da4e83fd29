import { request } from 'undici';

/** One answer, its body read. */
export interface PanelAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  location: string | undefined;
}

/**
 * A browser as far as the panel can tell, speaking real HTTP: it keeps cookies per host (only
 * what `Set-Cookie` gave it), sends them back, follows no redirect on its own, and can read the
 * CSRF token out of a page's forms.
 */
export class PanelClient {
  readonly #cookies = new Map<string, Map<string, string>>();
  /** Every Set-Cookie header received, for checking its attributes. */
  readonly setCookies: string[] = [];
  /** Extra headers on every request (an `X-Forwarded-Proto`, an `Origin`). */
  headers: Record<string, string> = {};

  cookieHeader(url: URL): string {
    return [...(this.#cookies.get(url.host) ?? new Map())].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async send(method: string, target: string, form?: Record<string, string>): Promise<PanelAnswer> {
    const url = new URL(target);
    const cookie = this.cookieHeader(url);
    const body = form === undefined ? undefined : new URLSearchParams(form).toString();
    const answer = await request(url, {
      method: method as 'GET',
      headers: {
        ...this.headers,
        ...(cookie === '' ? {} : { cookie }),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    const text = await answer.body.text();
    const set = answer.headers['set-cookie'];
    for (const line of set === undefined ? [] : Array.isArray(set) ? set : [set]) {
      this.setCookies.push(line);
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (pair === undefined || eq < 0) continue;
      const jar = this.#cookies.get(url.host) ?? new Map<string, string>();
      const value = pair.slice(eq + 1);
      if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(pair.slice(0, eq));
      else jar.set(pair.slice(0, eq), value);
      this.#cookies.set(url.host, jar);
    }
    const location = answer.headers['location'];
    return {
      status: answer.statusCode,
      headers: answer.headers,
      body: text,
      location: typeof location === 'string' ? new URL(location, url).href : undefined,
    };
  }

  get(url: string): Promise<PanelAnswer> {
    return this.send('GET', url);
  }

  post(url: string, form: Record<string, string>): Promise<PanelAnswer> {
    return this.send('POST', url, form);
  }

  /** GETs `url` and follows redirects (at most 10), across hosts, as a browser would. */
  async follow(url: string): Promise<PanelAnswer> {
    let answer = await this.get(url);
    for (
      let i = 0;
      i < 10 && answer.location !== undefined && answer.status >= 300 && answer.status < 400;
      i += 1
    ) {
      answer = await this.get(answer.location);
    }
    return answer;
  }

  /** The CSRF token a page's forms carry. */
  static csrf(page: PanelAnswer): string {
    const found = /name="_csrf" value="([^"]+)"/.exec(page.body);
    if (found?.[1] === undefined) throw new Error('no CSRF token on the page');
    return found[1];
  }
}
