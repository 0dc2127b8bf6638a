/**
 * Runs at most `concurrency` tasks at once; the others wait in arrival order. A finishing task hands
 * its slot straight to the next waiter, so the count never overshoots.
 */
export function concurrencyLimit(concurrency: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (work) => {
    if (running < concurrency) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
