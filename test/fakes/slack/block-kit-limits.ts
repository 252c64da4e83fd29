/**
 * The Block Kit limits Slack enforces with `invalid_blocks` (CONTRACTS.md §1(e), limits.json).
 * Returns one message per violation, shaped like Slack's `response_metadata.messages`.
 * `maxBlocks`: 50 in a message, 100 in a modal or Home tab view.
 */
export function blockKitViolations(blocks: unknown, maxBlocks = 50): string[] {
  const problems: string[] = [];
  if (!Array.isArray(blocks)) return ['blocks must be an array [json-pointer:/blocks]'];
  if (blocks.length > maxBlocks)
    problems.push(`no more than ${maxBlocks} items allowed [json-pointer:/blocks]`);
  const textObject = (value: unknown, max: number, at: string, types = ['plain_text', 'mrkdwn']): void => {
    const text = value as { type?: unknown; text?: unknown } | undefined;
    if (typeof text !== 'object' || text === null || !types.includes(String(text.type))) {
      problems.push(`must be a text object of type ${types.join('|')} [json-pointer:${at}]`);
      return;
    }
    if (typeof text.text !== 'string' || text.text.length < 1) {
      problems.push(`must be more than 0 characters [json-pointer:${at}/text]`);
    } else if (text.text.length > max) {
      problems.push(`must be less than ${max + 1} characters [json-pointer:${at}/text]`);
    }
  };
  const url = (value: unknown, at: string): void => {
    if (typeof value !== 'string' || !/^https?:\/\//.test(value))
      problems.push(`must be a valid URL [json-pointer:${at}]`);
    else if (value.length > 3000) problems.push(`must be less than 3001 characters [json-pointer:${at}]`);
  };
  const image = (value: Record<string, unknown>, at: string): void => {
    url(value['image_url'], `${at}/image_url`);
    const alt = value['alt_text'];
    if (typeof alt !== 'string' || alt.length < 1 || alt.length > 2000) {
      problems.push(`alt_text must be 1-2000 characters [json-pointer:${at}/alt_text]`);
    }
  };
  blocks.forEach((raw, index) => {
    const at = `/blocks/${index}`;
    const block = raw as Record<string, unknown>;
    if (typeof block.block_id === 'string' && block.block_id.length > 255) {
      problems.push(`must be less than 256 characters [json-pointer:${at}/block_id]`);
    }
    switch (block.type) {
      case 'header':
        textObject(block.text, 150, `${at}/text`, ['plain_text']);
        break;
      case 'section': {
        if (block.text === undefined && block.fields === undefined)
          problems.push(`must provide text or fields [json-pointer:${at}]`);
        if (block.text !== undefined) textObject(block.text, 3000, `${at}/text`);
        if (block.fields !== undefined) {
          const fields = block.fields as unknown[];
          if (!Array.isArray(fields) || fields.length > 10)
            problems.push(`no more than 10 items allowed [json-pointer:${at}/fields]`);
          else
            fields.forEach((field, i) => {
              textObject(field, 2000, `${at}/fields/${i}`);
            });
        }
        const accessory = block.accessory as Record<string, unknown> | undefined;
        if (accessory !== undefined && accessory['type'] === 'image') image(accessory, `${at}/accessory`);
        break;
      }
      case 'context': {
        const elements = block.elements as Record<string, unknown>[];
        if (!Array.isArray(elements) || elements.length < 1 || elements.length > 10) {
          problems.push(`must have 1-10 elements [json-pointer:${at}/elements]`);
          break;
        }
        elements.forEach((element, i) => {
          if (element['type'] === 'image') image(element, `${at}/elements/${i}`);
          else textObject(element, 3000, `${at}/elements/${i}`);
        });
        break;
      }
      case 'image':
        image(block, at);
        break;
      case 'divider':
        break;
      case 'actions': {
        const elements = block.elements as Record<string, unknown>[];
        if (!Array.isArray(elements) || elements.length < 1 || elements.length > 25) {
          problems.push(`must have 1-25 elements [json-pointer:${at}/elements]`);
          break;
        }
        elements.forEach((element, i) => {
          const eat = `${at}/elements/${i}`;
          if (element['type'] !== 'button') return;
          textObject(element['text'], 75, `${eat}/text`, ['plain_text']);
          if (element['url'] !== undefined) url(element['url'], `${eat}/url`);
          const value = element['value'];
          if (value !== undefined && (typeof value !== 'string' || value.length > 2000)) {
            problems.push(`must be less than 2001 characters [json-pointer:${eat}/value]`);
          }
          const actionId = element['action_id'];
          if (actionId !== undefined && (typeof actionId !== 'string' || actionId.length > 255)) {
            problems.push(`must be less than 256 characters [json-pointer:${eat}/action_id]`);
          }
        });
        break;
      }
      default:
        problems.push(`unsupported block type ${String(block.type)} [json-pointer:${at}/type]`);
    }
  });
  return problems;
}
