/**
 * /app/rules: the rulebook, revisions, retiring and moving a rule, and the rule form: a
 * rule proposed from a line, tried against the books before it is saved, then saved and
 * deciding the lines the dry run named.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { api, createTenant, rw, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { bakery, page, queueIds, textOf } from "../../../test/fixtures/workspace";

describe("the rule form", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await bakery();
  });

  it("proposes a rule from a line and says how many queued lines it would decide", async () => {
    const coffee = (await api(rw(t), "/api/v1/transactions?q=BLUE%20BOTTLE&per_page=100")).body.rows;
    const answer = await page(t, `/app/rules/new?from=${coffee[0].src_id}&category=Meals`);
    expect(answer.status).toBe(200);
    expect(answer.html).toContain('name="match_value" type="text" value="SQ\\W+BLUE\\W+BOTTLE"');
    expect(answer.html).toMatch(/<option value="description_regex" selected="">/);
    expect(answer.html).toContain('name="rule_key" type="text" value="sq-blue-bottle"');
    expect(textOf(answer.html)).toContain(`Saved now, it would decide ${coffee.length} lines waiting in the queue.`);
    expect(answer.html).toContain('<input type="hidden" name="return" value="review"/>');
  });

  it("tries a rule as typed, by a plain GET and in place for htmx", async () => {
    const plain = await page(t, "/app/rules/new?rule_key=git&match_kind=description_exact&match_value=github+inc&category=Software");
    expect(textOf(plain.html)).toContain("Saved now, it would decide 2 lines waiting in the queue.");
    const inPlace = await page(t, "/app/rules/test?rule_key=git&match_kind=amount_sign&match_value=in&category=Sales", { headers: { "hx-request": "true" } });
    expect(inPlace.html).toMatch(/^<section id="dry-run"/);
    expect(textOf(inPlace.html)).toContain("Saved now, it would decide 2 lines waiting in the queue.");
    const unreadable = await page(t, "/app/rules/test?match_kind=description_regex&match_value=(%3F%3Dx)", { headers: { "hx-request": "true" } });
    expect(textOf(unreadable.html)).toMatch(/Nothing to test yet: .*lookahead/);
  });

  it("saves the rule, which decides the lines the dry run named, and goes back to the queue it came from", async () => {
    const before = queueIds((await page(t, "/app/review")).html).length;
    const saved = await page(t, "/app/rules", {
      form: { rule_key: "blue-bottle", match_kind: "description_regex", match_value: "BLUE\\W+BOTTLE", category: "Meals", priority: "100", return: "review", from: "1" },
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe("/app/review?rule=blue-bottle&ruled=4");
    const review = await page(t, saved.location!);
    expect(textOf(review.html)).toContain("Rule blue-bottle is saved; it decided 4 lines of the queue.");
    expect(queueIds(review.html).length).toBe(before - 4);
    const why = await api(rw(t), "/api/v1/transactions/A/1/why");
    expect(why.body.citations[0]).toMatchObject({ kind: "rule", rule_key: "blue-bottle", revision: 1 });
  });

  it("names the rule that decides first, and the revision a saved key would append", async () => {
    // Made without deciding (create_rules waits for run-rules), and deciding first.
    const made = await api(rw(t), "/api/v1/create-rules", { method: "POST", body: { rules: [{ rule_key: "mill", match_kind: "description_regex", match_value: "MILL", category: "Ingredients", priority: 10 }] } });
    expect(made.status).toBe(200);
    const answer = await page(t, "/app/rules/new?rule_key=blue-bottle&match_kind=description_regex&match_value=FLOUR&category=Meals");
    const text = textOf(answer.html);
    expect(text).toContain("Saved now, it would decide 2 lines waiting in the queue: 0 by itself, the rest by rules that decide first.");
    expect(text).toContain("2 by mill (Ingredients)");
    expect(text).toContain("A rule named blue-bottle stands at revision 1: saving appends revision 2 in its place.");
  });

  it("refuses a rule the rulebook refuses, each problem tied to its field", async () => {
    const unread = await page(t, "/app/rules", { form: { rule_key: "", match_kind: "amount_sign", match_value: "in", category: "Sales", priority: "high" } });
    expect(unread.status).toBe(400);
    for (const field of ["rule_key", "priority"]) expect(unread.html).toContain(`<a href="#rule-${field}">`);
    const refused = await page(t, "/app/rules", { form: { rule_key: "x", match_kind: "description_regex", match_value: "(?=x)", category: "uncategorised" } });
    expect(refused.status).toBe(400);
    for (const field of ["match_value", "category"]) expect(refused.html).toContain(`<a href="#rule-${field}">`);
    expect(refused.html).toMatch(/id="rule-match_value"[^>]*aria-describedby="rule-match_value-hint rule-match_value-error" aria-invalid="true"/);
    expect(textOf(refused.html)).toContain("a rule cannot decide the queue; name a category");
    expect((await api(rw(t), "/api/v1/rules")).body.rules.some((r: any) => r.rule_key === "x")).toBe(false);
  });
});

describe("the rulebook", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await bakery({
      lines: 4,
      rules: [
        { rule_key: "coffee", match_kind: "description_regex", match_value: "BLUE BOTTLE", category: "Meals" },
        { rule_key: "software", match_kind: "description_exact", match_value: "GITHUB INC", category: "Software" },
      ],
    });
  });

  it("lists the rules as the API lists them, and a rule's revisions", async () => {
    const answer = await page(t, "/app/rules");
    expect(answer.status).toBe(200);
    const listed = (await api(rw(t), "/api/v1/rules")).body.rules.map((r: any) => r.rule_key);
    const shown = [...answer.html.matchAll(/<a href="\/app\/rules\/revisions\?key=([^"]+)" data-row-focus="true">/g)].map((m) => m[1]);
    expect(shown).toEqual(listed);
    const revisions = await page(t, "/app/rules/revisions?key=coffee");
    expect(textOf(revisions.html)).toMatch(/1 A pattern found in the description \(RE2\): BLUE BOTTLE Meals 100 live/);
    expect((await page(t, "/app/rules/revisions?key=nothing-here")).status).toBe(404);
  });

  it("moves a rule to the end, says when it already decides first, and retires one", async () => {
    const moved = await page(t, "/app/rules/move-to-end", { form: { rule_key: "software" } });
    expect(moved.status).toBe(303);
    expect(moved.location).toBe("/app/rules?moved=software");
    expect(textOf((await page(t, moved.location!)).html)).toContain("Rule software is moved to the end: it now decides first.");
    const again = await page(t, "/app/rules/move-to-end", { form: { rule_key: "software" } });
    expect(again.location).toBe("/app/rules?first=software");
    const retired = await page(t, "/app/rules/retire", { form: { rule_key: "coffee" } });
    expect(retired.location).toBe("/app/rules?retired=coffee");
    const rules = (await api(rw(t), "/api/v1/rules")).body.rules;
    expect(rules.find((r: any) => r.rule_key === "coffee")).toMatchObject({ retired: true, revision: 2 });
    expect(rules.find((r: any) => r.rule_key === "software")).toMatchObject({ revision: 2 });
    const missing = await page(t, "/app/rules/retire", { form: { rule_key: "nothing-here" } });
    expect(missing.status).toBe(404);
    expect(textOf(missing.html)).toContain('The rulebook holds no rule "nothing-here"');
  });

  it("refuses changes under a read-only credential or from another origin, and keeps another tenant's lines out", async () => {
    const readOnly = await page(t, "/app/rules/retire", { bearer: t.tokens.read_only, form: { rule_key: "software" } });
    expect(readOnly.status).toBe(403);
    const foreign = await page(t, "/app/rules", { origin: "https://evil.example", form: { rule_key: "x", match_kind: "amount_sign", match_value: "in", category: "Sales" } });
    expect(foreign.status).toBe(403);
    expect((await api(rw(t), "/api/v1/rules")).body.rules.some((r: any) => r.rule_key === "x")).toBe(false);
    const other = await createTenant();
    expect((await page(other, "/app/rules/new?from=1&category=Meals")).status).toBe(404);
    expect((await page(t, "/app/rules", { noCredential: true })).location).toBe("/signin");
  });
});
