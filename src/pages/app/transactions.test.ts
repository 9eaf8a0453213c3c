/**
 * /app/transactions: searching and filtering the books (dates, category, text, amount,
 * engine), paging, each line's history (its twin, its supersession, its decisions, why it
 * has its category), deciding a line from its page, and the security of it all.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, createTenant, deliver, rw, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { bakery, page, textOf } from "../../../test/fixtures/workspace";

const rowsOf = (html: string) => [...html.matchAll(/<a href="\/app\/transactions\/(A|B)\/(\d+)" data-row-focus="true">/g)].map((m) => `${m[1]}:${m[2]}`);

describe("searching the books", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await bakery({ lines: 60, rules: [{ rule_key: "github", match_kind: "description_regex", match_value: "GITHUB", category: "Software" }] });
    // A person decides one coffee line.
    const coffee = await api(rw(t), "/api/v1/transactions?q=BLUE%20BOTTLE&per_page=1");
    expect((await api(rw(t), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: coffee.body.rows[0].src_id, category: "Meals" } })).status).toBe(200);
  });

  it("lists the books newest first, a page at a time, with the matched total", async () => {
    const first = await page(t, "/app/transactions");
    expect(first.status).toBe(200);
    const listed = await api(rw(t), "/api/v1/transactions?per_page=50");
    expect(rowsOf(first.html)).toEqual(listed.body.rows.map((r: any) => `${r.side}:${r.src_id}`));
    expect(textOf(first.html)).toContain(`${listed.body.total} lines`);
    expect(first.html).toContain('<a href="/app/transactions?page=2" rel="next">Next page</a>');
    const second = await page(t, "/app/transactions?page=2");
    expect(rowsOf(second.html).length).toBe(listed.body.total - 50);
    expect(second.html).toContain('rel="prev"');
  });

  it("filters by text, dates, category, amount and what decided the line, as the API counts them", async () => {
    const text = await page(t, "/app/transactions?q=blue+bottle");
    const viaApi = await api(rw(t), "/api/v1/transactions?q=blue%20bottle&per_page=100");
    expect(rowsOf(text.html).length).toBe(viaApi.body.total);
    expect(text.html).toContain('value="blue bottle"');

    const dates = await page(t, "/app/transactions?from=2026-11-12&to=2026-11-13");
    const datesApi = await api(rw(t), "/api/v1/transactions?from=2026-11-12&to=2026-11-13&per_page=100");
    expect(rowsOf(dates.html).length).toBe(datesApi.body.total);

    const queue = await page(t, "/app/transactions?cat=uncategorised");
    const queueApi = await api(rw(t), "/api/v1/transactions?cat=uncategorised&per_page=100");
    expect(textOf(queue.html)).toContain(`${queueApi.body.total} lines`);

    const byRule = await page(t, "/app/transactions?engine=rule");
    const github = await api(rw(t), "/api/v1/transactions?q=GITHUB&per_page=100");
    expect(rowsOf(byRule.html).sort()).toEqual(github.body.rows.map((r: any) => `${r.side}:${r.src_id}`).sort());
    expect(textOf(byRule.html)).toContain("a rule");

    const byPerson = await page(t, "/app/transactions?engine=human");
    expect(rowsOf(byPerson.html).length).toBe(1);
    const undecided = await page(t, "/app/transactions?engine=none");
    expect(rowsOf(undecided.html).length + 1 + github.body.total).toBe(60);

    // Sizes of money in or out: the transfers are the lines of $400 and more.
    const large = await page(t, "/app/transactions?min=400");
    const transfers = await api(rw(t), "/api/v1/transactions?q=STRIPE&per_page=100");
    expect(rowsOf(large.html).sort()).toEqual(transfers.body.rows.map((r: any) => `${r.side}:${r.src_id}`).sort());
    // $10 and $11 (the third line is a transfer, the fourth $13).
    const small = await page(t, "/app/transactions?min=10&max=12.50");
    expect(rowsOf(small.html).length).toBe(2);
  });

  it("refuses filters it cannot read, each tied to its field", async () => {
    const answer = await page(t, "/app/transactions?from=2026-13-01&min=12.345&engine=robot");
    expect(answer.status).toBe(400);
    expect(answer.html).toContain('<a href="#f-from">Posted from: ');
    expect(answer.html).toContain('<a href="#f-min">Amount from: an amount in dollars, such as 25 or 25.50</a>');
    expect(answer.html).toContain('<a href="#f-engine">Decided by: ');
    expect(answer.html).toMatch(/id="f-from"[^>]*aria-describedby="f-from-error" aria-invalid="true"/);
    expect(rowsOf(answer.html)).toEqual([]);
    const reversed = await page(t, "/app/transactions?from=2026-11-20&to=2026-11-01");
    expect(reversed.status).toBe(400);
    expect(textOf(reversed.html)).toContain("Posted to: the last date comes before the first");
  });
});

describe("a line's page", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, { added: [txn("t1", { name: "SQ *BLUE BOTTLE 1", amount: 4.5 }), txn("t2", { name: "GITHUB INC", amount: 21 })] });
    await landSandboxBank(t);
    // The bank delivers t1 again (a twin) and modifies t2 (a successor supersedes it).
    await deliver(t.tenant, { added: [txn("t1", { name: "SQ *BLUE BOTTLE 1", amount: 4.5 })], modified: [txn("t2", { name: "GITHUB INC", amount: 22 })] });
    await landSandboxBank(t);
  });

  it("shows the line, why it waits, its lineage and the bank's record", async () => {
    const answer = await page(t, "/app/transactions/A/1");
    expect(answer.status).toBe(200);
    const text = textOf(answer.html);
    expect(text).toContain("SQ *BLUE BOTTLE 1");
    expect(text).toContain("No rule, judgement or model has decided A:1; it waits in the exceptions queue.");
    expect(text).toContain("The bank delivered it again; the duplicate is archived as B:1.");
    expect(text).toContain("Nothing has decided this line.");
    expect(answer.html).toContain("<summary>The bank&#39;s record</summary>");
    const twin = await page(t, "/app/transactions/B/1");
    expect(textOf(twin.html)).toContain("It is the archived twin of A:1 and counts in no total.");
    expect(textOf(twin.html)).toContain("An archived twin takes no judgement");
    const superseded = await page(t, "/app/transactions/A/2");
    expect(textOf(superseded.html)).toMatch(/superseded by A:3\./);
  });

  it("categorises and labels a line, and its history lists both decisions with the label's reason", async () => {
    const categorised = await page(t, "/app/transactions/A/1/decide", { form: { category: "Meals", action: "categorise" } });
    expect(categorised.status).toBe(303);
    expect(categorised.location).toBe("/app/transactions/A/1?decided=1");
    const labelled = await page(t, "/app/transactions/A/1/decide", { form: { category: "Coffee", action: "label", reason: "the owner's usual" } });
    expect(labelled.status).toBe(303);
    const after = textOf((await page(t, labelled.location!)).html);
    expect(after).toContain("The line is now Coffee .");
    expect(after).toMatch(/human:.+ \(categorize\) Meals/);
    expect(after).toMatch(/human:.+ \(label\) Coffee .*Reason: the owner's usual/);
    expect(after).toContain(`A:1 is Coffee by human:${t.tenant} via label`);
  });

  it("answers why in place for htmx", async () => {
    const answer = await page(t, "/app/transactions/A/1/why", { headers: { "hx-request": "true" } });
    expect(answer.status).toBe(200);
    expect(answer.html).toMatch(/^<div data-testid="explanation">/);
    const plain = await page(t, "/app/transactions/A/1/why");
    expect(plain.status).toBe(303);
    expect(plain.location).toBe("/app/transactions/A/1#why");
  });

  it("shows the ledger's refusal for a twin, and ties an empty category to its field", async () => {
    const twin = await page(t, "/app/transactions/B/1/decide", { form: { category: "Meals", action: "categorise" } });
    expect(twin.status).toBe(409);
    expect(textOf(twin.html)).toContain("B:1 is an archived twin (a duplicate arrival of A:1)");
    const empty = await page(t, "/app/transactions/A/1/decide", { form: { category: "", action: "categorise" } });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('<a href="#line-category">Category: name a category</a>');
  });

  it("keeps another tenant's lines out, refuses a read-only credential and another origin", async () => {
    const other = await createTenant();
    expect((await page(other, "/app/transactions/A/1")).status).toBe(404);
    expect(textOf((await page(other, "/app/transactions/A/1")).html)).toContain("This tenant holds no line A:1.");
    expect((await page(other, "/app/transactions/A/1/decide", { form: { category: "Meals", action: "categorise" } })).status).toBe(404);
    expect((await page(t, "/app/transactions/A/1/decide", { bearer: t.tokens.read_only, form: { category: "Meals", action: "categorise" } })).status).toBe(403);
    expect((await page(t, "/app/transactions/A/1/decide", { origin: "https://evil.example", form: { category: "Meals", action: "categorise" } })).status).toBe(403);
    expect((await page(t, "/app/transactions", { noCredential: true })).location).toBe("/signin");
    expect((await page(t, "/app/transactions/C/1")).status).toBe(404);
    expect((await api(rw(t), "/api/v1/transactions/A/1")).body.row.category).toBe("Coffee");
  });
});
