/** Child-process entry of the footprint benchmark: measures, reports over IPC, exits. */
import { type FootprintOptions, measureFootprint } from './footprint.js';

const options = JSON.parse(process.argv[2] ?? '{}') as FootprintOptions;
const result = await measureFootprint(options);
process.send?.(result);
process.disconnect?.();
