/**
 * /app/review: the queue the longest-waiting first with the model's suggestions, deciding
 * from a row (plain form and in place), labelling, bulk actions, refusals shown in words,
 * and the security of its actions.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, rw, ro, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { bakery, page, queueIds, textOf } from "../../../test/fixtures/workspace";
import { SuggestionCell } from "./review";

describe("the review page", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await bakery();
  });

  it("lists the queue the longest-waiting first, with the count in the navigation", async () => {
    const answer = await page(t, "/app/review");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/html");
    const ids = queueIds(answer.html);
    expect(ids.length).toBe(12);
    const listed = await api(rw(t), "/api/v1/exceptions?per_page=100");
    // The API's list is newest first; the review is its reverse (the oldest posted first).
    const byOldest = [...listed.body.exceptions].sort((a: any, b: any) => (a.posted_on < b.posted_on ? -1 : a.posted_on > b.posted_on ? 1 : a.a_id - b.a_id));
    expect(ids).toEqual(byOldest.map((e: any) => e.a_id));
    expect(answer.html).toMatch(/<span id="queue-count" class="count">12<span class="vh"> lines in the queue<\/span><\/span>/);
    expect(textOf(answer.html)).toContain("12 lines wait in the queue, the longest-waiting first.");
    // Landmarks, a skip link, labelled controls and table headers.
    expect(answer.html).toContain('<a class="skip" href="#main">');
    expect(answer.html).toContain('<main id="main"');
    expect(answer.html).toContain('<nav aria-label="Workspace">');
    expect(answer.html).toMatch(/<label for="cat-\d+" class="vh">Category for /);
    expect(answer.html).toContain('<th scope="col">The model&#39;s suggestion</th>');
  });

  it("ties a refused row's error to its control, and a bulk action with nothing selected to the bulk form", async () => {
    const [first] = queueIds((await page(t, "/app/review")).html);
    const refused = await page(t, "/app/review/decide", { form: { line: String(first), category: "", action: "categorise" } });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain(`<a href="#cat-${first}">Category for A:${first}: choose a category</a>`);
    expect(refused.html).toMatch(new RegExp(`id="cat-${first}"[^>]*aria-invalid="true"[^>]*aria-describedby="decide-error-${first}"`));
    const none = await page(t, "/app/review/bulk", { form: { category: "Meals", action: "categorise" } });
    expect(none.status).toBe(400);
    expect(textOf(none.html)).toContain("Lines: select at least one line");
  });

  it("categorises a line from its row without JavaScript: a redirect back to the queue, which no longer holds it", async () => {
    const [first] = queueIds((await page(t, "/app/review")).html);
    const posted = await page(t, "/app/review/decide", { form: { line: String(first), category: "Meals", action: "categorise" } });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`/app/review?decided=${first}`);
    const after = await page(t, posted.location!);
    expect(queueIds(after.html)).not.toContain(first);
    expect(textOf(after.html)).toMatch(/is now Meals \./);
    expect(after.html).toContain(`/app/rules/new?from=${first}&amp;category=Meals`);
    const line = await api(rw(t), `/api/v1/transactions/A/${first}/why`);
    expect(line.body).toMatchObject({ category: "Meals", engine: "human" });
    expect(line.body.citations[0]).toMatchObject({ kind: "human", op: "categorize", actor: `human:${t.tenant}` });
  });

  it("labels a line in place for htmx: the row becomes its outcome and the count is sent again", async () => {
    const [first] = queueIds((await page(t, "/app/review")).html);
    const before = (await api(rw(t), "/api/v1/exceptions")).body.total;
    const answer = await page(t, "/app/review/decide", { form: { line: String(first), category: "Software", action: "label" }, headers: { "hx-request": "true" } });
    expect(answer.status).toBe(200);
    expect(answer.html).toMatch(new RegExp(`^<tr id="line-${first}" class="done">`));
    expect(answer.html).toContain("Labelled: ");
    expect(answer.html).toContain(`<span id="queue-count" class="count" hx-swap-oob="true">${before - 1}<`);
    expect(answer.html).not.toContain("<html");
    const why = await api(rw(t), `/api/v1/transactions/A/${first}/why`);
    expect(why.body.citations[0]).toMatchObject({ kind: "human", op: "label", category: "Software" });
  });

  it("decides the selected lines together, and accepts the model's suggestions once it has learnt", async () => {
    const ids = queueIds((await page(t, "/app/review")).html);
    const selected = ids.slice(0, 3).map(String);
    const posted = await page(t, "/app/review/bulk", { form: { line: selected, category: "Ingredients", action: "categorise" } });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe(`/app/review?decided=${selected.join("%2C")}`);
    const after = await page(t, posted.location!);
    for (const id of selected) expect(queueIds(after.html)).not.toContain(Number(id));
    expect(textOf(after.html)).toContain("3 lines decided:");

    // The lines decided so far are the model's evidence: it now suggests categories for the rest.
    const rest = queueIds(after.html);
    const suggested = [...after.html.matchAll(/<tr id="line-(\d+)" data-row="true">[\s\S]*?<\/tr>/g)].filter((m) => m[0].includes('data-key="a"'));
    expect(suggested.length).toBeGreaterThan(0);
    expect(after.html).toMatch(/<strong>(Meals|Software|Ingredients)<\/strong>, \d+% sure/);
    const accepted = await page(t, "/app/review/bulk", { form: { line: suggested.map((m) => m[1]!), action: "accept" } });
    expect(accepted.status).toBe(303);
    const left = queueIds((await page(t, accepted.location!)).html);
    expect(left.length).toBe(rest.length - suggested.length);
  });

  it("shows the ledger's words when a line is no longer there to judge", async () => {
    const gone = await page(t, "/app/review/decide", { form: { line: "999999", category: "Meals", action: "categorise" } });
    expect(gone.status).toBe(404);
    expect(textOf(gone.html)).toContain("This tenant holds no line A:999999.");
    const inPlace = await page(t, "/app/review/decide", { form: { line: "999999", category: "Meals", action: "categorise" }, headers: { "hx-request": "true" } });
    expect(inPlace.status).toBe(404);
    expect(inPlace.html).toContain("This tenant holds no line A:999999.");
  });
});

describe("the review's security", () => {
  let t: SandboxTenant;
  let other: SandboxTenant;
  beforeAll(async () => {
    [t, other] = await Promise.all([bakery({ lines: 3 }), createTenant()]);
  });

  it("sends a browser without a session to /signin, and htmx too", async () => {
    const answer = await page(t, "/app/review", { noCredential: true });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/signin");
    const action = await page(t, "/app/review/decide", { noCredential: true, form: { line: "1", category: "Meals", action: "categorise" } });
    expect(action.status).toBe(303);
    expect(action.location).toBe("/signin");
    const inPlace = await page(t, "/app/review", { noCredential: true, headers: { "hx-request": "true" } });
    expect(inPlace.headers.get("hx-redirect")).toBe("/signin");
    const ended = await page({ ...t, session: "A".repeat(43) }, "/app/review");
    expect(ended.location).toBe("/signin");
  });

  it("refuses an action under a read-only credential, as the API does", async () => {
    const [first] = queueIds((await page(t, "/app/review")).html);
    expect((await page(t, "/app/review", { bearer: t.tokens.read_only })).status).toBe(200);
    const refused = await page(t, "/app/review/decide", { bearer: t.tokens.read_only, form: { line: String(first), category: "Meals", action: "categorise" } });
    expect(refused.status).toBe(403);
    expect(textOf(refused.html)).toContain("This token is read-only");
    expect((await api(ro(t), `/api/v1/transactions/A/${first}`)).body.row.category).toBe("uncategorised");
  });

  it("refuses a form posted from another origin", async () => {
    const [first] = queueIds((await page(t, "/app/review")).html);
    const refused = await page(t, "/app/review/decide", { origin: "https://evil.example", form: { line: String(first), category: "Meals", action: "categorise" } });
    expect(refused.status).toBe(403);
    expect(textOf(refused.html)).toContain("must come from this service's own origin");
    expect((await api(rw(t), `/api/v1/transactions/A/${first}`)).body.row.category).toBe("uncategorised");
  });

  it("treats another tenant's line as one it does not hold", async () => {
    const [first] = queueIds((await page(t, "/app/review")).html);
    const answer = await page(other, "/app/review/decide", { form: { line: String(first), category: "Meals", action: "categorise" } });
    expect(answer.status).toBe(404);
    expect((await api(rw(t), `/api/v1/transactions/A/${first}`)).body.row.category).toBe("uncategorised");
  });
});

type QueuedLine = { a_id: number; description: string; amount_cents: number };

/**
 * A bakery whose bank delivers `added`: the queue's lines that `teach` picks are categorised
 * Ingredients through the page, every other line but those `waits` picks Meals; then the
 * review page's row of each waiting line.
 */
async function waitingRows(added: ReturnType<typeof txn>[], teach: (queue: QueuedLine[]) => QueuedLine[], waits: (queue: QueuedLine[]) => QueuedLine[]) {
  const t = await bakery();
  await deliver(t.tenant, { accounts: [CHECKING], added });
  await landSandboxBank(t);
  const queue = (await api(rw(t), "/api/v1/exceptions?per_page=100")).body.exceptions as QueuedLine[];
  const [taught, waiting] = [teach(queue), waits(queue)];
  const others = queue.filter((e) => !taught.includes(e) && !waiting.includes(e));
  for (const [lines, category] of [[taught, "Ingredients"], [others, "Meals"]] as const) {
    const posted = await page(t, "/app/review/bulk", { form: { line: lines.map((e) => String(e.a_id)), category, action: "categorise" } });
    expect(posted.status).toBe(303);
  }
  const html = (await page(t, "/app/review")).html;
  return waiting.map(({ a_id }) => html.match(new RegExp(`<tr id="line-${a_id}"[\\s\\S]*?</tr>`))![0]);
}

describe("the review page's suggestion while the model's band is not open", () => {
  it("says the model decides nothing yet beside a suggestion at the floor, and nothing of it otherwise", () => {
    const shown = (suggestion: Parameters<typeof SuggestionCell>[0]["suggestion"]) => String(SuggestionCell({ suggestion }));
    const waiting = shown({ category: "Meals", confidence: 0.97, bandNotOpen: true });
    expect(waiting).toMatch(/<strong>Meals<\/strong>, 97% sure/);
    expect(waiting).toContain("the model decides nothing yet: too few of your labels have been checked against the others; it waits for you or a rule");
    expect(shown({ category: "Meals", confidence: 0.97 })).not.toContain("decides nothing yet");
  });
});

describe("the review page's suggestion for a line held below the band", () => {
  it("says a check printed as its number alone names nobody the model knows, so it waits for a person or a rule however sure the suggestion", async () => {
    const checks = Array.from({ length: 16 }, (_, i) => txn(`check_${i}`, { name: `CHECK ${1001 + i}`, amount: 450 + i, date: `2026-11-${String(10 + (i % 10)).padStart(2, "0")}` }));
    const byCheck = (queue: QueuedLine[]) => queue.filter((e) => e.description.startsWith("CHECK"));
    const rows = await waitingRows(checks, (q) => byCheck(q).slice(0, 12), (q) => byCheck(q).slice(12));
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row).toMatch(/<strong>Ingredients<\/strong>, \d+% sure/);
      expect(textOf(row)).toContain("the line names nobody the model knows, a check's number or a new account: it waits for you or a rule");
    }
  });

  it("says the money goes the other way from every line of its name the model was taught, so it waits for a person or a rule", async () => {
    // The landlord, paid every month; then money in under the same name.
    const rent = Array.from({ length: 14 }, (_, i) => txn(`rent_${i}`, { name: `ROBINSON HOLDING RENT ${250300 + i}`, amount: 2_500, date: `2026-11-${String(10 + (i % 10)).padStart(2, "0")}` }));
    const paying = [0, 1].map((i) => txn(`paying_${i}`, { name: `ROBINSON HOLDING RENT ${250390 + i}`, amount: -2_500, date: "2026-11-21" }));
    const robinson = (queue: QueuedLine[]) => queue.filter((e) => e.description.startsWith("ROBINSON"));
    const rows = await waitingRows([...rent, ...paying], (q) => robinson(q).filter((e) => e.amount_cents < 0), (q) => robinson(q).filter((e) => e.amount_cents > 0));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(textOf(row)).toContain("the money goes the other way from every line of this name the model was taught, a refund or another party of the same name: it waits for you or a rule");
    }
  });

  it("says the store sells many kinds of things and its labels are not yet enough, so it waits for a person or a rule", async () => {
    const trips = Array.from({ length: 6 }, (_, i) => txn(`walmart_${i}`, { name: `WAL-MART #${1000 + (i % 3)} OAKLAND CA`, amount: 30 + i, date: `2026-11-${String(10 + i).padStart(2, "0")}` }));
    const walmart = (queue: QueuedLine[]) => queue.filter((e) => e.description.startsWith("WAL-MART"));
    const rows = await waitingRows(trips, (q) => walmart(q).slice(0, 4), (q) => walmart(q).slice(4));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(textOf(row)).toContain("the store sells many kinds of things, and your labels of it are not yet enough to say which this is: it waits for you or a rule");
    }
  });

  it("says the lines of its name went to several categories, so it waits for a person or a rule", async () => {
    // A warehouse club: nine trips for ingredients, five for the staff's lunches, at the same prices on the same card.
    const trips = Array.from({ length: 16 }, (_, i) => txn(`club_${i}`, { name: `COSTCO WHSE #0${480 + (i % 3)} OAKLAND CA`, amount: 60 + (i % 4), date: `2026-11-${String(10 + (i % 10)).padStart(2, "0")}` }));
    const club = (queue: QueuedLine[]) => queue.filter((e) => e.description.startsWith("COSTCO"));
    const rows = await waitingRows(trips, (q) => club(q).slice(0, 9), (q) => club(q).slice(14));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(textOf(row)).toContain("the lines of this name the model was taught went to several categories, whatever their amount or card: it waits for you or a rule");
    }
  });
});
