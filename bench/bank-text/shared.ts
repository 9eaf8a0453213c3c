/**
 * The shared merchant prior as the evaluation builds it: other businesses, never the ones
 * measured, that opted in. Each banks in one style (drawn by its seed) and has labelled
 * every line of its training period, filed by its own taxonomy (taxonomy.ts); what each
 * contributes is what the service would pool (src/ledger/model/shared-prior.ts).
 */
import { lineKey } from "../../src/ledger/model/features";
import { Evidence } from "../../src/ledger/model/evidence";
import { contribution, pool, type SharedPrior } from "../../src/ledger/model/shared-prior";
import { makeBook } from "./book";
import { STYLE_NAMES } from "./styles";
import { filedBy, taxonomyOf } from "./taxonomy";

export function sharedPriorOf(seeds: readonly number[]): SharedPrior {
  return pool(
    seeds.map((seed) => {
      const book = makeBook(seed);
      const style = STYLE_NAMES[seed % STYLE_NAMES.length]!;
      const evidence = new Evidence();
      for (const line of filedBy(taxonomyOf(seed), book.lines[style].slice(0, book.training))) evidence.learn({ key: lineKey(line), category: line.category }, 1);
      return contribution(evidence.examples, taxonomyOf(seed).names.values());
    }),
  );
}
