import { benchFreshness } from './freshness.js';
const r = await benchFreshness({ durationMs: 20_000, comments: 12, posts: 4, windowSeconds: 30, seed: 1 });
console.log(JSON.stringify(r, null, 1));
