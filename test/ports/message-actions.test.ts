import { describe, expect, it } from 'vitest';
import { renderDiscordMessage } from '../../adapters/discord/index.js';
import { renderSlackMessage } from '../../adapters/slack/index.js';
import {
  commandAction,
  decodeActionId,
  encodeActionId,
  type Message,
  type MessageAction,
} from '../../src/ports/index.js';

describe('message button ids', () => {
  it('round-trips each verb to the command it stands for', () => {
    const cases = [
      ['comments', '42', 'comments 42'],
      ['follow', '42', 'subscribe comments --post 42'],
      ['remind', '7', 'remind 7'],
      ['mute', 's1a2b3c4', 'pause s1a2b3c4'],
    ] as const;
    for (const [verb, target, command] of cases) {
      const action = commandAction(verb, target, 'label');
      expect(action?.command).toBe(command);
      expect(decodeActionId(encodeActionId({ verb, target }))).toEqual({ status: 'command', verb, command });
    }
  });

  it('answers ids of another version, an unknown verb or a malformed target as expired', () => {
    for (const id of [
      'dirbot:v0:follow:42',
      'dirbot:v2:follow:42',
      'dirbot:v1:delete:42',
      'dirbot:v1:follow:42:extra',
      'dirbot:v1:follow:42 --keyword x',
      'dirbot:v1:follow:',
      'dirbot:v1',
    ]) {
      expect(decodeActionId(id)).toEqual({ status: 'expired' });
    }
  });

  it('leaves ids that are not ours alone', () => {
    expect(decodeActionId('directory_open')).toBeUndefined();
    expect(decodeActionId('directory:share:post 1')).toBeUndefined();
  });

  it('never composes a button whose target could carry extra arguments, and always fits 100 characters', () => {
    expect(commandAction('follow', '42 --keyword x', 'Follow')).toBeUndefined();
    expect(commandAction('follow', '"42"', 'Follow')).toBeUndefined();
    expect(commandAction('follow', 'a'.repeat(65), 'Follow')).toBeUndefined();
    const longest = commandAction('comments', 'a'.repeat(64), 'Comments');
    expect(longest && encodeActionId(longest).length).toBeLessThanOrEqual(100);
  });
});

function manyButtons(count: number, label = 'Button'): Message {
  const actions: MessageAction[] = Array.from({ length: count }, (_, i) => {
    const action = commandAction('comments', `p${i}`, `${label} ${i}`);
    if (action === undefined) throw new Error('bad test target');
    return action;
  });
  return { kind: 'post', title: 'Busy', url: 'https://directory.example/posts/1', fallback: 'Busy', actions };
}

describe('message buttons within platform limits', () => {
  it('Slack: at most 25 elements in the actions block, labels cut to 75 characters, Open kept first', () => {
    const blocks = renderSlackMessage(manyButtons(30, 'x'.repeat(100))).blocks;
    const actions = blocks.find((block) => block['type'] === 'actions') as {
      elements: Record<string, unknown>[];
    };
    expect(actions.elements).toHaveLength(25);
    expect(actions.elements[0]).toMatchObject({
      action_id: 'directory_open',
      url: 'https://directory.example/posts/1',
    });
    for (const element of actions.elements) {
      expect((element['text'] as { text: string }).text.length).toBeLessThanOrEqual(75);
    }
  });

  it('Slack: escapes a label so it can never ping', () => {
    const blocks = renderSlackMessage(manyButtons(1, '<!channel> @here')).blocks;
    expect(JSON.stringify(blocks)).not.toMatch(/<!channel>|@here/);
  });

  it('Discord: at most 5 buttons per row and 5 rows, labels cut to 80 characters, no link over 512', () => {
    const message: Message = {
      ...manyButtons(30, 'y'.repeat(100)),
      actions: [
        { kind: 'link', label: 'Open', url: `https://directory.example/${'p'.repeat(600)}` },
        ...(manyButtons(30).actions ?? []),
      ],
    };
    const rows = renderDiscordMessage(message).components ?? [];
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.components).toHaveLength(5);
    expect(rows.flatMap((row) => row.components).some((button) => button.style === 5)).toBe(false);
    for (const button of rows.flatMap((row) => row.components))
      expect(button.label.length).toBeLessThanOrEqual(80);
  });

  it('Discord and Slack: a message without actions gets no command buttons', () => {
    const plain: Message = {
      kind: 'comment',
      title: 'Hi',
      url: 'https://directory.example/c/1',
      fallback: 'Hi',
    };
    expect(renderDiscordMessage(plain).components).toBeUndefined();
    const actions = renderSlackMessage(plain).blocks.filter((block) => block['type'] === 'actions');
    expect(actions).toEqual([
      {
        type: 'actions',
        elements: [
          {
            type: 'button',
            text: { type: 'plain_text', text: 'Open', emoji: true },
            url: 'https://directory.example/c/1',
            action_id: 'directory_open',
          },
        ],
      },
    ]);
  });
});
