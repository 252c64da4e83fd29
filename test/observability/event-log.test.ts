import { describe, expect, it } from 'vitest';
import type { OutboxEntry } from '../../src/delivery/index.js';
import { engineEventSink } from '../../src/observability/event-log.js';
import { createMetrics } from '../../src/observability/metrics.js';
import { createCapturingLogger } from '../support/capturing-logger.js';

const entry: OutboxEntry = {
  destination: { platform: 'slack', channelId: 'C1' },
  destinationKey: 'slack:C1',
  itemKey: 'comments:new:1',
  message: { kind: 'comment', title: 'One', fallback: 'One' },
  subscriptionIds: ['s1'],
  enqueuedAt: 0,
  attempts: 0,
  notBefore: 0,
};

describe('the engine’s events as log lines', () => {
  it('says what a delivered-ledger check decided after a takeover, and keeps a retry’s check at debug', () => {
    const logger = createCapturingLogger();
    const sink = engineEventSink(logger, createMetrics(), () => 0);
    sink({ source: 'dispatcher', type: 'ledger-checked', entry, alreadyPosted: true, takeover: true });
    sink({ source: 'dispatcher', type: 'ledger-checked', entry, alreadyPosted: false, takeover: true });
    sink({ source: 'dispatcher', type: 'ledger-checked', entry, alreadyPosted: false, takeover: false });
    expect(logger.lines.map((l) => [l.level, l.message, l.fields['channel']])).toEqual([
      ['info', 'already posted (the delivered ledger says so): settled without sending again', 'C1'],
      ['info', 'outcome unknown after a takeover and not in the delivered ledger: sending it', 'C1'],
      ['debug', 'not in the delivered ledger: sending it again', 'C1'],
    ]);
  });
});
