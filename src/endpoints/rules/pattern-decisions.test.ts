/**
 * What generated rule patterns decide through the endpoints: a pattern create_rule accepts
 * decides exactly the undecided lines plain re2js matches (the trigram candidates, the
 * literal automaton and the prefilters in between), and adjudicate takes a pattern
 * exactly when re2js matches the line it would be born from (409 otherwise); a pattern
 * RE2 cannot read is a 400 naming `match_value` in both; none reaches a 500.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { patternCase, textsFor } from "../../../test/fixtures/patterns";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, rw, session, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { matchedPart } from "../../ledger/rules/pattern";
import { expectRefusal, re2Of, rule, undecided, type Line } from "../../../test/fixtures/rule-patterns";

let made = 0;
/** A tenant whose lines are texts generated patterns were built to match, so the runs' patterns match some of them. */
async function booksOfGeneratedLines(count: number): Promise<SandboxTenant> {
  const t = await createTenant();
  const names = fc
    .sample(patternCase.chain((c) => textsFor(c.sample)), { seed: 20261130 + made++, numRuns: count * 2 })
    // No control characters: the bank stores them, but what the API shows of them is not the text itself.
    .filter((name) => name.trim() !== "" && !/[\x00-\x1f\x7f-\x9f]/.test(name))
    .slice(0, count);
  await deliver(t.tenant, { accounts: [CHECKING], added: names.map((name, i) => txn(`g${i}`, { name })) });
  await landSandboxBank(t);
  return t;
}

describe("generated patterns through create_rule and adjudicate", () => {
  it("decide exactly the lines re2js matches, and are refused exactly when RE2 cannot read them", { timeout: 180_000 }, async () => {
    // A pattern matching many lines is checked by create_rule only while it would decide
    // a few, so the lines last; when they run low, a fresh tenant takes over.
    let books = await booksOfGeneratedLines(150);
    let lines = await undecided(books);
    let decided = 0;
    let adjudicated = 0;
    let refused = 0;
    let run = 0;

    await fc.assert(
      fc.asyncProperty(patternCase, fc.boolean(), async ({ pattern }, aimAtAMatch) => {
        run++;
        // Two credentials of the tenant in turn: the runs stay well inside each one's rate limit.
        const who = run % 2 === 0 ? rw(books) : session(books);
        const re2 = re2Of(pattern);
        const matches = (line: Line) => re2 !== null && re2.test(matchedPart(line.description));
        if (re2 === null) refused++;

        const matching = lines.filter(matches);
        if (re2 === null || matching.length <= 8) {
          const answer = await api(who, "/api/v1/create-rule", { method: "POST", body: rule(`r-${run}`, pattern) });
          if (re2 === null) {
            expectRefusal(answer, ["body.match_value"], pattern);
          } else {
            expect(answer.status, `${pattern}: ${JSON.stringify(answer.body)}`).toBe(200);
            expect(answer.body.decided, pattern).toBe(matching.length);
            if (matching.length > 0) {
              decided += matching.length;
              lines = lines.filter((l) => !matching.includes(l));
              expect((await undecided(books)).map((l) => l.aId).sort(), pattern).toEqual(lines.map((l) => l.aId).sort());
            }
          }
        }

        const target = (aimAtAMatch ? lines.find(matches) : undefined) ?? lines[run % lines.length]!;
        const answer = await api(who, "/api/v1/adjudicate", { method: "POST", body: { a_id: target.aId, ...rule(`a-${run}`, pattern) } });
        const where = `${pattern} on ${JSON.stringify(target.description)}: ${JSON.stringify(answer.body)}`;
        if (re2 === null) {
          expectRefusal(answer, ["body.match_value"], pattern);
        } else if (matches(target)) {
          expect(answer.status, where).toBe(200);
          lines = lines.filter((l) => l !== target);
          adjudicated++;
        } else {
          // The rule does not match the line it would be born from: the ledger's refusal.
          expect(answer.status, where).toBe(409);
        }

        // The rules accepted so far decide lines as they arrive: fresh lines go to a fresh tenant.
        if (lines.length < 100) {
          books = await booksOfGeneratedLines(150);
          lines = await undecided(books);
        }
      }),
      { seed: 20261130, numRuns: 100 },
    );
    // The runs bite: patterns both ways, lines decided by create_rule and by adjudicate.
    expect(refused).toBeGreaterThan(10);
    expect(decided).toBeGreaterThan(20);
    expect(adjudicated).toBeGreaterThan(20);
  });
});
