import { csrfSync } from 'csrf-sync';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import session from 'express-session';
import helmet from 'helmet';
import type { HttpHandler } from '../ports/index.js';
import { createAccess } from './access.js';
import { channelChanges } from './channel-changes.js';
import { channelContext } from './channel-context.js';
import { channelPages } from './channel-pages.js';
import { createPages } from './pages.js';
import type { PanelDeps } from './panel-deps.js';
import { ASSETS_FOLDER } from './render.js';
import { BotSessionStore } from './session-store.js';
import { SESSION_COOKIE, signInRoutes } from './sign-in-routes.js';
import { webhookPages } from './webhook-pages.js';
import './session-data.js';

export interface PanelOptions extends PanelDeps {
  /**
   * Express's `trust proxy`: whose X-Forwarded-* headers to believe. Behind Heroku's router, one
   * hop (X-Forwarded-Proto says https, so cookies are Secure); elsewhere only the loopback.
   */
  trustProxy: number | string;
  /** How long a session lasts from sign-in. Default 12 hours. */
  sessionTtlMs?: number;
  /** Sign-in attempts per address per window. Default 30 per 5 minutes. */
  signInLimit?: { limit: number; windowMs: number };
  /**
   * Where the sign-in limit keeps its counts. Default: this process's memory, so each process
   * counts alone; with N web processes an address gets N times the limit. The app passes one in
   * Redis when the store is Redis, so every web process counts together.
   */
  signInLimitStore?: Store;
}

export interface Panel {
  /** The request handler the bot's HTTP server mounts at `/`. */
  handler: HttpHandler;
}

const DEFAULT_SESSION_TTL_MS = 12 * 60 * 60_000;

/**
 * The control panel (issue 28): server-rendered pages over Express, served at `/` of the bot's own
 * HTTP server. Sessions in signed HttpOnly SameSite cookies, kept in the bot's store (express-session),
 * Secure when the request came over https; a synchroniser CSRF token on every POST (csrf-sync); a
 * strict Content-Security-Policy and the usual security headers (helmet); sign-in rate-limited per
 * address (express-rate-limit). No page runs a script. See docs/panel.md and ADR 008.
 */
export function createPanel(options: PanelOptions): Panel {
  const { logger } = options;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy);
  app.set('etag', false);

  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'none'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          baseUri: ["'none'"],
        },
      },
      // The sign-in round trip comes back from the platform's site as a top-level navigation.
      referrerPolicy: { policy: 'same-origin' },
    }),
  );
  app.use('/assets', express.static(ASSETS_FOLDER, { index: false, fallthrough: false, maxAge: '1h' }));

  const ttlMs = options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS;
  app.use(
    session({
      name: SESSION_COOKIE,
      secret: [...options.sessionSecrets],
      store: new BotSessionStore(options.sessions, ttlMs),
      resave: false,
      saveUninitialized: false,
      unset: 'destroy',
      cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: ttlMs, path: '/' },
    }),
  );
  app.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 100 }));
  app.use((_req, res, next) => {
    // Pages carry a person's data: never kept by a shared cache.
    res.set('cache-control', 'no-store');
    next();
  });

  const { csrfSynchronisedProtection, generateToken } = csrfSync({
    size: 32,
    getTokenFromRequest: (req) => {
      const body = req.body as Record<string, unknown> | undefined;
      return typeof body?.['_csrf'] === 'string' ? body['_csrf'] : undefined;
    },
  });
  const pages = createPages(options.clock, (req) => generateToken(req));
  const limit = options.signInLimit ?? { limit: 30, windowMs: 5 * 60_000 };
  const limited = rateLimit({
    windowMs: limit.windowMs,
    limit: limit.limit,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    ...(options.signInLimitStore === undefined ? {} : { store: options.signInLimitStore }),
    handler: (_req, res) => {
      res
        .status(429)
        .type('html')
        .send(
          pages.message(res, {
            title: 'Too many sign-in attempts',
            text: 'Too many sign-in attempts from your address. Wait a few minutes and try again.',
          }),
        );
    },
  });

  signInRoutes(app, options, pages, { limited, csrf: csrfSynchronisedProtection });

  const signedIn: RequestHandler = (req, res, next) => {
    if (req.session.user) return next();
    if (req.method === 'GET' || req.method === 'HEAD') {
      const back = req.originalUrl === '/' ? '' : `?next=${encodeURIComponent(req.originalUrl)}`;
      return res.redirect(303, `/signin${back}`);
    }
    res
      .status(401)
      .type('html')
      .send(pages.message(res, { title: 'Signed out', text: 'Sign in first.', signInAgain: true }));
  };
  app.use(signedIn);
  const access = createAccess(options);
  const context = channelContext(options, access, pages);
  channelPages(app, options, access, pages, context);
  channelChanges(app, options, access, pages, context, csrfSynchronisedProtection);
  webhookPages(app, options, access, pages, csrfSynchronisedProtection);

  app.use((_req, res) => {
    res
      .status(404)
      .type('html')
      .send(pages.message(res, { title: 'Not found', text: 'There is no such page.' }));
  });
  const failed: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    const code = (error as { code?: unknown }).code;
    if (code === 'EBADCSRFTOKEN') {
      res
        .status(403)
        .type('html')
        .send(
          pages.message(res, {
            title: 'Not accepted',
            text: 'This form did not come from this page of the panel, or it has expired. Go back, reload the page and try again.',
          }),
        );
      return;
    }
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).type('text/plain').send('Bad request\n');
      return;
    }
    logger.error({ err: error, path: req.path }, 'panel request failed');
    if (res.headersSent) return res.end();
    res.status(500).type('text/plain').send('Something went wrong on our side; it has been logged.\n');
  };
  app.use(failed);

  return { handler: (req, res) => app(req, res) };
}
