import type { Express, Request, RequestHandler, Response } from 'express';
import { COMMAND_SPECS, type CommandSpec, subscribeValues } from '../commands/index.js';
import type { CommandInvocation, CommandReply, Message } from '../ports/index.js';
import type { Access, VisibleChannel } from './access.js';
import { type ChannelContext, channelPath, commandPlace } from './channel-context.js';
import type { PageRenderer } from './pages.js';
import type { PanelDeps } from './panel-deps.js';
import { panelFields, submittedValues } from './subscribe-form.js';

const spec = (name: string): CommandSpec => {
  const found = COMMAND_SPECS.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no ${name} command`);
  return found;
};

/** The status a refused or failed change answers with. */
function statusOf(reply: CommandReply): number {
  if (reply.error?.code === 'command_forbidden') return 403;
  if (reply.error?.code === 'command_usage' || reply.error?.code === 'subscription_not_found') return 400;
  return reply.error === undefined ? 200 : 502;
}

/**
 * Every change in the panel — add, edit, pause, resume, remove — is the `/directory` command it
 * stands for, run through the command handler with the person's own rights, so it is checked,
 * answered and refused in the command's words. The handler records it in the channel's history;
 * here it is announced in the channel.
 */
export function channelChanges(
  app: Express,
  deps: PanelDeps,
  access: Access,
  pages: PageRenderer,
  context: ChannelContext,
  csrf: RequestHandler,
): void {
  const { user, channelOf, trail, subscriptionRow, subscriptionOf } = context;

  /** Runs `text` (or a submitted form) as the viewer in `where`, as the command would run there. */
  async function run(
    req: Request,
    where: VisibleChannel,
    command: { text: string } | { form: string; values: Record<string, string | boolean | undefined> },
  ): Promise<CommandReply> {
    const viewer = user(req);
    if (viewer.platform !== 'local' && viewer.platform !== where.platform) {
      return {
        visibility: 'ephemeral',
        text: `You signed in with ${viewer.platform}; this is a ${where.platform} channel, which you can read but not change.`,
        messages: [],
        shareable: false,
        error: { code: 'command_forbidden' },
      };
    }
    const base: Omit<CommandInvocation, 'text'> = {
      ...commandPlace(where),
      actor: {
        userId: viewer.userId,
        displayName: viewer.name,
        canManageChannel: await access.platformAllows(viewer, where),
      },
      via: 'panel',
    };
    const reply =
      'text' in command
        ? await deps.commands.handle({ ...base, text: command.text })
        : await (deps.commands.submitForm?.({ ...base, command: command.form, values: command.values }) ??
            Promise.resolve({
              visibility: 'ephemeral' as const,
              text: 'Forms are not available.',
              messages: [],
              shareable: false,
              error: { code: 'internal' },
            }));
    if (reply.error === undefined) {
      const first = reply.text.split('\n', 1)[0] ?? '';
      const message: Message = {
        kind: 'info',
        title: 'Subscriptions changed in the control panel',
        text: `${viewer.name}: ${first}`,
        fallback: `${viewer.name} changed this channel's subscriptions in the control panel: ${first}`.slice(
          0,
          300,
        ),
      };
      await deps
        .announce(
          {
            platform: where.platform,
            channelId: where.channelId,
            ...(where.platform === 'console' ? {} : { workspaceId: where.workspaceId }),
          },
          message,
        )
        .catch((error: unknown) =>
          deps.logger.warn({ err: error }, 'could not announce a panel change in its channel'),
        );
    }
    return reply;
  }

  const refused = (res: Response, where: VisibleChannel, reply: CommandReply) =>
    res
      .status(statusOf(reply))
      .type('html')
      .send(
        pages.page(
          res.req,
          'refused',
          { title: 'Not changed', trail: trail(where, { label: 'Not changed' }) },
          {
            text: reply.text,
            back: channelPath(where),
          },
        ),
      );

  const formPage = (
    req: Request,
    res: Response,
    where: VisibleChannel,
    data: { editing?: string; values: Record<string, string | boolean | undefined>; reply?: CommandReply },
  ) => {
    const problem = data.reply?.error
      ? {
          text: data.reply.text,
          ...(data.reply.error.option === undefined ? {} : { option: data.reply.error.option }),
        }
      : undefined;
    const title = data.editing === undefined ? 'Add a subscription' : `Edit ${data.editing}`;
    res
      .status(data.reply === undefined ? 200 : statusOf(data.reply))
      .type('html')
      .send(
        pages.page(
          req,
          'subscribe-form',
          { title, trail: trail(where, { label: title }) },
          {
            channel: where,
            action:
              data.editing === undefined
                ? `${channelPath(where)}/subscribe`
                : `${channelPath(where)}/subscriptions/${encodeURIComponent(data.editing)}/edit`,
            fields: panelFields(spec('subscribe'), data.values, problem),
            problem,
            usage: spec('subscribe').usage,
            submitLabel: data.editing === undefined ? 'Subscribe' : 'Save changes',
          },
        ),
      );
  };

  app.get('/channels/:platform/:channelId/subscribe', async (req, res) => {
    const where = await channelOf(req, res);
    if (where === undefined) return;
    if (!(await access.mayChange(user(req), where)))
      return refused(res, where, await run(req, where, { text: 'subscribe' }));
    formPage(req, res, where, { values: {} });
  });

  app.post('/channels/:platform/:channelId/subscribe', csrf, async (req, res) => {
    const where = await channelOf(req, res);
    if (where === undefined) return;
    const values = submittedValues(spec('subscribe'), req.body as Record<string, unknown>);
    const before = new Set(where.subscriptions.map((s) => s.id));
    const reply = await run(req, where, { form: 'subscribe', values });
    if (reply.error?.code === 'command_forbidden') return refused(res, where, reply);
    if (reply.error !== undefined) return formPage(req, res, where, { values, reply });
    const after = await deps.subscriptions.forChannel(where.platform, where.channelId);
    const made =
      after.find((s) => !before.has(s.id)) ?? after.find((s) => reply.text.includes(`Id: ${s.id}.`));
    req.session.notice = { text: reply.text, refused: false };
    res.redirect(
      303,
      made
        ? `${channelPath(where)}/subscriptions/${encodeURIComponent(made.id)}/preview`
        : channelPath(where),
    );
  });

  /** The subscription of the request's path in `where`, or a 404 is sent. */

  app.get('/channels/:platform/:channelId/subscriptions/:id/edit', async (req, res) => {
    const where = await channelOf(req, res);
    const s = where && subscriptionOf(req, res, where);
    if (where === undefined || s === undefined) return;
    if (!(await access.mayChange(user(req), where)))
      return refused(res, where, await run(req, where, { text: `subscribe ${s.feed}` }));
    formPage(req, res, where, { editing: s.id, values: subscribeValues(s) });
  });

  // An edit is the subscribe it amounts to; when it changed which items come (feed or filters),
  // that is a new subscription, and the old one is removed once the new one is in place.
  app.post('/channels/:platform/:channelId/subscriptions/:id/edit', csrf, async (req, res) => {
    const where = await channelOf(req, res);
    const s = where && subscriptionOf(req, res, where);
    if (where === undefined || s === undefined) return;
    const values = submittedValues(spec('subscribe'), req.body as Record<string, unknown>);
    const before = new Set(where.subscriptions.map((x) => x.id));
    const reply = await run(req, where, { form: 'subscribe', values });
    if (reply.error?.code === 'command_forbidden') return refused(res, where, reply);
    if (reply.error !== undefined) return formPage(req, res, where, { editing: s.id, values, reply });
    const after = await deps.subscriptions.forChannel(where.platform, where.channelId);
    const made = after.find((x) => !before.has(x.id));
    let text = reply.text;
    if (made !== undefined) {
      const removed = await run(req, where, { text: `unsubscribe ${s.id}` });
      text = `${reply.text.split('\n', 1)[0]}\n${removed.error === undefined ? `Replaced ${s.id}.` : removed.text}`;
    }
    req.session.notice = { text, refused: false };
    res.redirect(303, channelPath(where));
  });

  for (const [verb, command] of [
    ['pause', 'pause'],
    ['resume', 'resume'],
    ['remove', 'unsubscribe'],
  ] as const) {
    app.post(`/channels/:platform/:channelId/subscriptions/:id/${verb}`, csrf, async (req, res) => {
      const where = await channelOf(req, res);
      const s = where && subscriptionOf(req, res, where);
      if (where === undefined || s === undefined) return;
      const reply = await run(req, where, { text: `${command} ${s.id}` });
      if (reply.error !== undefined) return refused(res, where, reply);
      req.session.notice = { text: reply.text, refused: false };
      res.redirect(303, channelPath(where));
    });
  }

  app.get('/channels/:platform/:channelId/subscriptions/:id/remove', async (req, res) => {
    const where = await channelOf(req, res);
    const s = where && subscriptionOf(req, res, where);
    if (where === undefined || s === undefined) return;
    if (!(await access.mayChange(user(req), where)))
      return refused(res, where, await run(req, where, { text: `unsubscribe ${s.id}` }));
    res.type('html').send(
      pages.page(
        req,
        'remove',
        { title: `Remove ${s.id}`, trail: trail(where, { label: `Remove ${s.id}` }) },
        {
          row: await subscriptionRow(s),
          action: `${channelPath(where)}/subscriptions/${encodeURIComponent(s.id)}/remove`,
          back: channelPath(where),
        },
      ),
    );
  });
}
