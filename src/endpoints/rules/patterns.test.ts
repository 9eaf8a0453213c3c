/**
 * Rule patterns through the endpoints that take them (create_rule, create_rules,
 * adjudicate): the issue's own examples, and batches of generated regex syntax of every
 * kind (test/fixtures/patterns.ts) through create_rules: every pattern RE2 compiles is
 * accepted, every other one is a 400 problem naming its row's `match_value`, nothing of
 * the batch written; no pattern reaches a 500. (pattern-decisions.test.ts checks what the
 * accepted ones decide, through create_rule and adjudicate.)
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { patternCase } from "../../../test/fixtures/patterns";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, rw, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { expectRefusal, re2Of, rule, undecided } from "../../../test/fixtures/rule-patterns";

describe("the issue's patterns", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, {
      accounts: [CHECKING],
      added: [
        txn("g1", { name: "GUSTO DES:PAYROLL ID:8832" }),
        txn("o1", { name: "OKAFOR PLASTICS  DES:BILL PAY 0042" }),
        txn("a1", { name: "BAAA" }),
        txn("c1", { name: "xABabC" }),
        txn("s1", { name: "SQ *BLUE BOTTLE #12" }),
        txn("m1", { name: "AMZN MKTP US*2K4LJ8" }),
        txn("u1", { name: "NOTHING MATCHES THIS LINE" }),
      ],
    });
    await landSandboxBank(t);
  });

  it("accepts the ordinary bookkeeping patterns the proof refused, and decides their lines", async () => {
    for (const [key, pattern] of [["gusto", "GUSTO.*PAYROLL"], ["okafor", "OKAFOR PLASTICS +(DES:)?BILL PAY"], ["square", "^SQ \\*"], ["amazon", "AMZN MKTP US\\*\\w+"]] as const) {
      const answer = await api(rw(t), "/api/v1/create-rule", { method: "POST", body: rule(key, pattern) });
      expect(answer.status, pattern).toBe(200);
      expect(answer.body.decided, pattern).toBe(1);
    }
  });

  it("takes the named groups and inline flag groups that made the check throw, in all three verbs", async () => {
    const created = await api(rw(t), "/api/v1/create-rules", { method: "POST", body: { rules: [rule("named", "(?<x>a+)+$"), rule("python-named", "(?P<x>a+)+$"), rule("inline", "(?i:ab)+c")] } });
    expect(created.status).toBe(200);
    expect((await api(rw(t), "/api/v1/create-rule", { method: "POST", body: rule("named", "(?<x>a+)+$") })).body.decided).toBe(1);
    const line = (await undecided(t)).find((l) => l.description === "xABabC")!;
    const adjudicated = await api(rw(t), "/api/v1/adjudicate", { method: "POST", body: { a_id: line.aId, ...rule("inline", "(?i:ab)+c") } });
    expect(adjudicated.status).toBe(200);
    expect(adjudicated.body.rule).toMatchObject({ match_value: "(?i:ab)+c", born_from_a_id: line.aId, pattern_problem: null });
  });

  it("refuses what RE2 does not have in every verb, naming the construct on match_value, and writes nothing", async () => {
    const before = (await api(rw(t), "/api/v1/rules")).body.rules;
    const cases: [string, RegExp][] = [
      ["(COFFEE)\\1", /backreference/],
      ["COFFEE(?= SHOP)", /lookahead/],
      ["(?<=SQ \\*)COFFEE", /lookbehind/],
      ["a++", /possessive/],
      ["(?>a)", /atomic group/],
      ["a{1000}{1000}", /repeats a repetition/],
      ["a{1001}", /over RE2's limit/],
      ["\\u00e9", /`\\u` escapes/],
    ];
    const line = (await undecided(t))[0]!;
    for (const [pattern, message] of cases) {
      const one = await api(rw(t), "/api/v1/create-rule", { method: "POST", body: rule("bad", pattern) });
      expectRefusal(one, ["body.match_value"], pattern);
      expect(one.body.errors[0].message, pattern).toMatch(message);
      const bulk = await api(rw(t), "/api/v1/create-rules", { method: "POST", body: { rules: [rule("fine", "COFFEE"), rule("bad", pattern), rule("bad-too", `x${pattern}`)] } });
      expectRefusal(bulk, ["body.rules.1.match_value", "body.rules.2.match_value"], pattern);
      const adjudicated = await api(rw(t), "/api/v1/adjudicate", { method: "POST", body: { a_id: line.aId, ...rule("bad", pattern) } });
      expectRefusal(adjudicated, ["body.match_value"], pattern);
    }
    expect((await api(rw(t), "/api/v1/rules")).body.rules).toEqual(before);
  });
});

describe("generated patterns through create_rules", () => {
  it("are accepted exactly when RE2 compiles them; each refused row is named, and nothing of a refused batch is written", async () => {
    const t = await createTenant();
    let accepted = 0;
    let refused = 0;
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(patternCase, { minLength: 1, maxLength: 6 }), async (cases) => {
        run++;
        const rows = cases.map(({ pattern }, i) => rule(`p-${run}-${i}`, pattern));
        const failing = cases.flatMap(({ pattern }, i) => (re2Of(pattern) === null ? [`body.rules.${i}.match_value`] : []));
        const answer = await api(rw(t), "/api/v1/create-rules", { method: "POST", body: { rules: rows } });
        const patterns = cases.map((c) => c.pattern).join(" , ");
        if (failing.length > 0) {
          expectRefusal(answer, failing, patterns);
          refused++;
        } else {
          expect(answer.status, `${patterns}: ${JSON.stringify(answer.body)}`).toBe(200);
          expect(answer.body.created.map((r: any) => [r.match_value, r.pattern_problem])).toEqual(cases.map((c) => [c.pattern, null]));
          accepted += cases.length;
        }
      }),
      { seed: 20261129, numRuns: 100 },
    );
    // Only the batches with no refused row were written.
    expect((await api(rw(t), "/api/v1/rules")).body.rules).toHaveLength(accepted);
    expect(accepted).toBeGreaterThan(40);
    expect(refused).toBeGreaterThan(30);
  });
});
