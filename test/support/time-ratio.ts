/**
 * How many times longer `large` takes than `small`: a measure of how work grows with input that
 * holds on a loaded machine, where wall time alone does not. Each is timed by its fastest of
 * several interleaved runs (the least disturbed by other work), after warm-up runs that let the
 * engine compile patterns and optimise code.
 */
export function timeRatio(large: () => void, small: () => void, runs = 9): number {
  const best = { large: Number.POSITIVE_INFINITY, small: Number.POSITIVE_INFINITY };
  for (let i = -3; i < runs; i++) {
    for (const [name, work] of [
      ['large', large],
      ['small', small],
    ] as const) {
      const start = performance.now();
      work();
      if (i >= 0) best[name] = Math.min(best[name], performance.now() - start);
    }
  }
  return best.large / best.small;
}
