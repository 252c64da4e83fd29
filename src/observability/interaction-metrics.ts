import type { InteractionEvent } from '../ports/index.js';
import type { Metrics } from './metrics.js';

const result = (failed: boolean) => (failed ? 'failed' : 'ok');

/** Counts what people did on one platform's home tab, buttons and forms. */
export function interactionEventSink(metrics: Metrics, platform: string) {
  return (event: InteractionEvent): void => {
    switch (event.type) {
      case 'home_published':
        metrics.homePublishes.inc({ platform });
        return;
      case 'home_action':
        metrics.homeActions.inc({
          platform,
          action: event.action,
          result: event.refused ? 'refused' : 'done',
        });
        return;
      case 'button':
        metrics.buttons.inc({ platform, verb: event.verb, result: result(event.failed) });
        return;
      case 'form':
        metrics.forms.inc({
          platform,
          stage: event.stage,
          result: result(event.failed),
          deferred: String(event.stage === 'submitted' && event.deferred),
        });
        return;
      case 'replayed':
        metrics.replays.inc({ platform, kind: event.kind });
        return;
    }
  };
}
