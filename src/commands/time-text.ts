// Times as replies write them are shared with `/directory why`'s sentences (src/accounting/).
export { formatDuration, formatUtc } from '../schedule/index.js';
