/** Child-process entry of the footprint benchmark: measures one store, reports over IPC, exits. */
import type { StoreKind } from '../../src/store/bot-store.js';
import { type FootprintOptions, measureStore } from './footprint-measure.js';
import { storeUrl } from './footprint-stores.js';

// The URL comes from the inherited environment, never the command line (it may hold a password).
const { kind, options } = JSON.parse(process.argv[2] ?? '{}') as {
  kind: StoreKind;
  options: FootprintOptions;
};
const result = await measureStore(kind, storeUrl(kind) ?? '', options);
process.send?.(result);
process.disconnect?.();
