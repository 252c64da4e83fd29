import { PassThrough } from 'node:stream';
import { createConsoleAdapter, PROMPT } from '../../../adapters/console/index.js';
import { createCapturingLogger } from '../../support/capturing-logger.js';
import { eventually } from '../../support/polling.js';
import { describeChatAdapterContract } from '../chat-adapter-contract.js';

describeChatAdapterContract({
  platform: 'console',
  channelsCanGo: false,
  async open() {
    let output = '';
    const input = new PassThrough();
    const adapter = createConsoleAdapter({
      write: (text) => {
        output += text;
      },
      input,
      logger: createCapturingLogger(),
    });
    return {
      adapter,
      http: { mount: () => {} },
      // Commands typed at the prompt come from the console's one channel.
      channel: { platform: 'console', channelId: 'console' },
      async invoke(text) {
        await eventually(() => output.endsWith(PROMPT), 5000, 'the prompt');
        const from = output.length;
        input.write(`/directory ${text}\n`);
        // The answer is printed, then the prompt again.
        await eventually(() => output.length > from && output.endsWith(PROMPT), 5000, 'the answer');
        return output.slice(from, -PROMPT.length);
      },
      async close() {
        input.end();
      },
    };
  },
});
