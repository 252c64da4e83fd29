/**
 * What people did with a platform's interactive surfaces (home tab, message buttons, forms), as
 * an adapter reports it: the composition root counts these in /metrics. Slack reports them today;
 * the shape names no platform so another adapter's surfaces can count the same way.
 */
export type InteractionEvent =
  /** A home view was published (Slack: views.publish answered ok). */
  | { type: 'home_published' }
  /** Someone pressed a home button; `refused` when it changed nothing for them. */
  | { type: 'home_action'; action: 'pause' | 'resume' | 'remove'; refused: boolean }
  /** A command form was opened (or the platform refused to), or submitted; `deferred`: answered after it closed. */
  | { type: 'form'; stage: 'opened'; failed: boolean }
  | { type: 'form'; stage: 'submitted'; deferred: boolean; failed: boolean }
  /** A message button's command was run (verb `expired`: an id this build cannot read). */
  | { type: 'button'; verb: string; failed: boolean }
  /** A copy of a command, click or submission already handled arrived again and was ignored. */
  | { type: 'replayed'; kind: 'command' | 'button' | 'form' };

const INTERACTION_TYPES: ReadonlySet<string> = new Set<InteractionEvent['type']>([
  'home_published',
  'home_action',
  'form',
  'button',
  'replayed',
]);

/** Picks the interactions out of everything an adapter reports. */
export function isInteractionEvent<E extends { type: string }>(
  event: E,
): event is Extract<E, InteractionEvent> {
  return INTERACTION_TYPES.has(event.type);
}
