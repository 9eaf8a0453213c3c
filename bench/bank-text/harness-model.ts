/**
 * The model under evaluation, and the only place the evaluations touch it: to measure
 * another model, change this function. It learns from the labels, and sees the text (never
 * the truth) of every line `lines` names: the lines its ledger would hold when it decides
 * the test lines; `shared`, the shared merchant prior where the tenant opted in, and
 * `categories`, the tenant's categories by their shared names.
 */
import { DEFAULT_DUH_BAND_FLOOR, LocalModel } from "../../src/ledger/model/classifier";
import { lineKey } from "../../src/ledger/model/features";
import type { BankLine } from "./book";
import type { Guess } from "./measure";
import type { SharedPrior } from "../../src/ledger/model/shared-prior";

export function trainModel(
  labels: readonly BankLine[],
  lines: readonly BankLine[],
  shared: SharedPrior | null = null,
  categories: ReadonlyMap<string, string> = new Map(),
  floor = DEFAULT_DUH_BAND_FLOOR,
): (line: BankLine) => Guess | null {
  const model = LocalModel.train(
    labels.map((line) => ({ key: lineKey(line), category: line.category })),
    lines.map((line) => lineKey({ description: line.description, merchantName: line.merchantName, amountCents: line.amountCents, accountId: line.accountId })),
  );
  model.useSharedPrior(shared, categories);
  return (line) => {
    const prediction = model.predict({ description: line.description, merchantName: line.merchantName, amountCents: line.amountCents, accountId: line.accountId });
    return prediction && !model.bandOpens(floor) ? { ...prediction, bandClosed: true } : prediction;
  };
}
