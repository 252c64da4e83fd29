import type { Express, Request, RequestHandler, Response } from 'express';
import { messageOf } from '../errors.js';
import type { PanelUser } from './access.js';
import type { PageRenderer } from './pages.js';
import type { PanelDeps } from './panel-deps.js';
import type { PendingSignIn } from './sign-in/sign-in-provider.js';

/** A sign-in must come back within this long, or its state is refused. */
export const SIGN_IN_TIMEOUT_MS = 10 * 60_000;

/**
 * A path on this panel to return to after signing in, or `/`. Anything that could leave the panel
 * (another origin, `//host`, a backslash some browsers read as a slash, control characters) is
 * dropped: no open redirects.
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== 'string' || value.length > 500) return '/';
  const control = [...value].some((c) => c === '\\' || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
  if (!value.startsWith('/') || value.startsWith('//') || control) return '/';
  try {
    const parsed = new URL(value, 'http://panel.invalid');
    return parsed.origin === 'http://panel.invalid' ? `${parsed.pathname}${parsed.search}` : '/';
  } catch {
    return '/';
  }
}

/** Replaces the session (a new id: no fixation) with one signed in as `user`. */
function signIn(req: Request, user: PanelUser): Promise<void> {
  return new Promise((resolve, reject) => {
    req.session.regenerate((error: unknown) => {
      if (error) return reject(error);
      req.session.user = user;
      req.session.save((saveError: unknown) => (saveError ? reject(saveError) : resolve()));
    });
  });
}

function saveSession(req: Request): Promise<void> {
  return new Promise((resolve, reject) =>
    req.session.save((error: unknown) => (error ? reject(error) : resolve())),
  );
}

/**
 * Sign-in and sign-out: each platform's OAuth round trip (state and PKCE kept in the session,
 * used once), the sandbox's local sign-in, and sign-out. `limited` is the sign-in rate limit,
 * `csrf` the token check every POST goes through.
 */
export function signInRoutes(
  app: Express,
  deps: PanelDeps,
  pages: PageRenderer,
  guards: { limited: RequestHandler; csrf: RequestHandler },
): void {
  const refuse = (res: Response, status: number, text: string) =>
    res
      .status(status)
      .type('html')
      .send(pages.message(res, { title: 'Sign-in failed', text, signInAgain: true }));

  app.get('/signin', (req, res) => {
    if (req.session.user) return res.redirect(303, '/');
    const next = safeReturnPath(req.query['next']);
    res.type('html').send(
      pages.signIn(req, res, {
        providers: deps.providers.map((p) => ({
          label: p.label,
          href: `/signin/${p.id}${next === '/' ? '' : `?next=${encodeURIComponent(next)}`}`,
        })),
        local: deps.localSignIn,
      }),
    );
  });

  app.get('/signin/:provider', guards.limited, async (req, res, next) => {
    const provider = deps.providers.find((p) => p.id === req.params['provider']);
    if (provider === undefined) return next();
    try {
      const { url, pending } = await provider.start();
      req.session.pending = {
        provider: provider.id,
        ...pending,
        startedAt: deps.clock.now(),
        returnTo: safeReturnPath(req.query['next']),
      };
      await saveSession(req);
      res.redirect(303, url);
    } catch (error) {
      deps.logger.warn({ provider: provider.id, error: messageOf(error) }, 'panel sign-in could not start');
      refuse(res, 502, `${provider.label} is not answering. Try again in a minute.`);
    }
  });

  app.get('/signin/:provider/callback', guards.limited, async (req, res, next) => {
    const provider = deps.providers.find((p) => p.id === req.params['provider']);
    if (provider === undefined) return next();
    // Used once, whatever happens next: a replayed callback finds nothing to match.
    const pending: PendingSignIn | undefined = req.session.pending;
    delete req.session.pending;
    const stale =
      pending === undefined ||
      pending.provider !== provider.id ||
      typeof req.query['state'] !== 'string' ||
      req.query['state'] !== pending.state ||
      deps.clock.now() - pending.startedAt > SIGN_IN_TIMEOUT_MS;
    if (stale) {
      await saveSession(req).catch(() => {});
      return refuse(
        res,
        400,
        'This sign-in was not started here, was already used, or took too long. Start again from the sign-in page.',
      );
    }
    if (typeof req.query['error'] === 'string') {
      await saveSession(req).catch(() => {});
      return refuse(
        res,
        400,
        `${provider.label.replace('Sign in with ', '')} did not sign you in. Start again if you meant to.`,
      );
    }
    const callback = new URL(provider.redirectUri);
    for (const [key, value] of Object.entries(req.query)) {
      if (typeof value === 'string') callback.searchParams.set(key, value);
    }
    try {
      const person = await provider.finish(callback, pending);
      await signIn(req, { ...person, signedInAt: deps.clock.now() });
      deps.logger.info({ platform: person.platform, userId: person.userId }, 'panel sign-in');
      res.redirect(303, pending.returnTo);
    } catch (error) {
      // The library's words can quote what the platform sent: logged, never shown.
      deps.logger.warn({ provider: provider.id, error: messageOf(error) }, 'panel sign-in refused');
      await saveSession(req).catch(() => {});
      refuse(res, 400, 'The platform’s answer did not check out, so you are not signed in. Start again.');
    }
  });

  app.post('/signin/local', guards.limited, guards.csrf, async (req, res, next) => {
    if (!deps.localSignIn) return next();
    await signIn(req, {
      platform: 'local',
      userId: 'console',
      name: 'you (at this machine)',
      workspaces: [],
      signedInAt: deps.clock.now(),
    });
    res.redirect(303, '/');
  });

  app.post('/signout', guards.csrf, (req, res) => {
    req.session.destroy(() => {
      res.clearCookie(SESSION_COOKIE, { path: '/' });
      res.redirect(303, '/signin');
    });
  });
}

/** The session cookie's name. */
export const SESSION_COOKIE = 'directory_panel';
