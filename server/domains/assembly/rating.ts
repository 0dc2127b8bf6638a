// The rating formula of an assembly: plain mean and Bayesian-smoothed mean of its 1-5 scores.
import { RATING_PRIOR_COUNT, RATING_PRIOR_MEAN } from '../../../db/schema';

/** Bayesian smoothing of ratings, defined with sort=rating's generated column (db/schema/assembly.ts). */
export { RATING_PRIOR_COUNT, RATING_PRIOR_MEAN };

const round2 = (value: number) => Math.round(value * 100) / 100;

/** The `rating` of a view from the stored sum and count of its scores. */
export function ratingOf(sum: number, n: number) {
  return {
    average: n > 0 ? round2(sum / n) : null,
    count: n,
    smoothed: round2((sum + RATING_PRIOR_MEAN * RATING_PRIOR_COUNT) / (n + RATING_PRIOR_COUNT)),
  };
}
