import type { Request, Response } from 'express';
import type { Clock } from '../ports/index.js';
import { createRenderer, viewHelpers } from './render.js';

/** Makes the CSRF token a page's forms carry (csrf-sync's `generateToken`). */
export type TokenFor = (req: Request) => string;

/** What every page template gets besides its own data. */
interface PageFrame {
  title: string;
  user: Request['session']['user'] | undefined;
  csrf: string;
  notice: Request['session']['notice'] | undefined;
  /** Breadcrumbs above the heading: each a label and, but for the last, a link. */
  trail: { label: string; href?: string }[];
}

/**
 * Renders the panel's pages: each template with the frame every page shares (who is signed in,
 * the CSRF token for its forms, the notice of the last change, shown once) and the time helpers.
 */
export function createPages(clock: Clock, tokenFor: TokenFor) {
  const renderer = createRenderer();

  function page(
    req: Request,
    template: string,
    frame: { title: string; trail?: PageFrame['trail'] },
    data: object,
  ): string {
    const notice = req.session.notice;
    if (notice !== undefined) delete req.session.notice;
    const full: PageFrame & { h: ReturnType<typeof viewHelpers> } = {
      title: frame.title,
      trail: frame.trail ?? [],
      user: req.session.user,
      csrf: tokenFor(req),
      notice,
      h: viewHelpers(clock.now()),
    };
    return renderer.page(template, { ...full, ...data });
  }

  return {
    page,
    signIn(
      req: Request,
      _res: Response,
      data: { providers: { label: string; href: string }[]; local: boolean },
    ) {
      return page(req, 'sign-in', { title: 'Sign in' }, data);
    },
    /** A short page that says one thing: a refusal, a failure, something not found. */
    message(res: Response, data: { title: string; text: string; signInAgain?: boolean }) {
      return page(res.req, 'message', { title: data.title }, data);
    },
  };
}

export type PageRenderer = ReturnType<typeof createPages>;
