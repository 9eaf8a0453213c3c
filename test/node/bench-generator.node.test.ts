/**
 * The benchmark's feed order: lines reach the bank in the order they post, each at most
 * three days late, numbered again in that order. (Plain Node: the generator is bench code.)
 */
import { expect, it } from "vitest";
import { generateLines, inArrivalOrder } from "../../bench/generator";

const DAY = 86_400_000;

it("delivers the same lines as they post, at most three days late, numbered in arrival order", () => {
  const generated = generateLines(3_000, 5);
  const arrived = inArrivalOrder(generated, "posted", 5);

  expect(arrived.map((l) => l.id)).toEqual(generated.map((_, i) => i + 1));
  const content = (l: (typeof generated)[number]) => `${l.postedOn}|${l.description}|${l.amountCents}|${l.accountId}`;
  expect(arrived.map(content).sort()).toEqual(generated.map(content).sort());

  // A line never arrives after one posted more than three days later than it.
  let latestPosted = 0;
  for (const line of arrived) {
    const posted = Date.parse(line.postedOn);
    expect(latestPosted - posted).toBeLessThanOrEqual(3 * DAY);
    latestPosted = Math.max(latestPosted, posted);
  }
  // ...and the lateness is there: the dates are not simply sorted.
  expect(arrived.some((line, i) => i > 0 && line.postedOn < arrived[i - 1]!.postedOn)).toBe(true);
});

it("keeps the generator's order when asked for a shuffled feed", () => {
  const generated = generateLines(500, 5);
  expect(inArrivalOrder(generated, "shuffled", 5)).toBe(generated);
});
