/**
 * Strict input through the real endpoints: text a person or a client writes refuses
 * control characters and lone surrogates, naming the field; integers in a query or a path
 * are decimal digits; dates are calendar dates from 1900-01-01; the sandbox bank takes
 * whole cents; one code per kind of refusal. Every refusal is read back to have written
 * nothing. Bank and carrier text, which is not ours to refuse, is stored as received and
 * shown safely.
 */
import { SELF } from "cloudflare:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { beforeAll, describe, expect, it } from "vitest";
import { landSandboxBank } from "./fixtures/books";
import { api, BASE, CHECKING, createTenant, deliver, grantAuditor, outbox, rw, session, txn, uniqueSlug, VIEWER, type SandboxTenant } from "./fixtures/sandbox";

type Answer = { status: number; body: any; headers: Headers };

/**
 * A 400 `invalid_request` whose `errors` name exactly `fields`, each with the issue `code`
 * when given (a field may carry another issue besides: a rule's pattern is also checked).
 */
function expectRefused(answer: Answer, fields: string[], code?: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  expect(answer.body.code).toBe("invalid_request");
  expect([...new Set(answer.body.errors.map((e: any) => e.field))].sort()).toEqual([...fields].sort());
  if (code) {
    for (const field of fields) {
      expect(answer.body.errors.filter((e: any) => e.field === field).map((e: any) => e.code), field).toContain(code);
    }
  }
}

/** What a person could paste into a one-line field, with the issue code each gets. */
const HOSTILE_TEXT: [string, string][] = [
  ["Meals\u0000", "control_character"],
  ["Meals\u001b[31m", "control_character"],
  ["\u0085Meals", "control_character"],
  ["Meals\u009b2J", "control_character"],
  ["Meals\u007f", "control_character"],
  ["Meals\n", "control_character"],
  ["\tMeals", "control_character"],
  ["Me\ud800als", "lone_surrogate"],
  ["Meals\udfff", "lone_surrogate"],
];

const post = (t: SandboxTenant, path: string, body: unknown) => api(rw(t), path, { method: "POST", body });

async function bookedTenant(lines = 3): Promise<SandboxTenant> {
  const t = await createTenant();
  await deliver(t.tenant, { accounts: [CHECKING], added: Array.from({ length: lines }, (_, i) => txn(`s${i}`, { name: `COFFEE SHOP ${i}`, amount: 4.5 + i })) });
  await landSandboxBank(t);
  return t;
}

describe("control characters and lone surrogates in what people write", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await bookedTenant();
  });

  it("categorize and label refuse such a category, naming it, and judge nothing", async () => {
    for (const [category, code] of HOSTILE_TEXT) {
      expectRefused(await post(t, "/api/v1/categorize", { side: "A", src_id: 1, category }), ["body.category"], code);
      expectRefused(await post(t, "/api/v1/transactions/A/1/label", { category }), ["body.category"], code);
    }
    const named = await post(t, "/api/v1/categorize", { side: "A", src_id: 1, category: "Meals\u0000" });
    expect(named.body.errors[0].message).toBe("contains the control character U+0000 (NUL) at position 5");
    const line = await api(rw(t), "/api/v1/transactions/A/1/why");
    expect(line.body).toMatchObject({ category: "uncategorised", engine: "none" });
  });

  it("a label's reason may run over lines (tab, line feed, carriage return) and holds no other control", async () => {
    for (const reason of ["\u0000", "lunch\u001b[2J", "lunch\u000b", "lunch\ud800"]) {
      expectRefused(await post(t, "/api/v1/transactions/A/2/label", { category: "Meals", reason }), ["body.reason"]);
    }
    expect((await api(rw(t), "/api/v1/transactions/A/2/why")).body.engine).toBe("none");
    const multiLine = await post(t, "/api/v1/transactions/A/2/label", { category: "Meals", reason: "Client lunch,\r\n\tnot office coffee" });
    expect(multiLine.status, JSON.stringify(multiLine.body)).toBe(200);
    expect(multiLine.body.row.category).toBe("Meals");
  });

  it("rule verbs refuse such a key, value or category, each named, and append no rule", async () => {
    const rule = { rule_key: "coffee", match_kind: "description_regex", match_value: "COFFEE", category: "Meals" };
    for (const field of ["rule_key", "match_value", "category"] as const) {
      for (const [bad, code] of HOSTILE_TEXT) {
        expectRefused(await post(t, "/api/v1/create-rule", { ...rule, [field]: bad }), [`body.${field}`], code);
      }
    }
    expectRefused(await post(t, "/api/v1/create-rules", { rules: [rule, { ...rule, rule_key: "two", match_value: "COFFEE\u0000" }] }), ["body.rules.1.match_value"], "control_character");
    expectRefused(await post(t, "/api/v1/adjudicate", { ...rule, a_id: 3, category: "Meals\u009b" }), ["body.category"], "control_character");
    expectRefused(await post(t, "/api/v1/move-rule-to-end", { rule_key: "coffee\u0000" }), ["body.rule_key"]);
    expectRefused(await post(t, "/api/v1/retire-rule", { rule_key: "\ud800" }), ["body.rule_key"], "lone_surrogate");
    expect((await api(rw(t), "/api/v1/rules")).body.rules).toEqual([]);
    expect((await api(rw(t), "/api/v1/transactions/A/3/why")).body.engine).toBe("none");
  });

  it("the category verbs refuse such a name and add nothing to the taxonomy", async () => {
    const before = (await api(rw(t), "/api/v1/taxonomy")).body.categories;
    for (const [name, code] of HOSTILE_TEXT) {
      expectRefused(await post(t, "/api/v1/new-category", { name: `Office ${name}`, header: "expense" }), ["body.name"], code);
    }
    expectRefused(
      await post(t, "/api/v1/new-categories", { categories: [{ name: "Flour", header: "cogs" }, { name: "Su\u0000gar", header: "cogs" }] }),
      ["body.categories.1.name"],
      "control_character",
    );
    expect((await api(rw(t), "/api/v1/taxonomy")).body.categories).toEqual(before);
  });

  it("a grant offer and its confirmation refuse such a viewer name: no code is texted, no grant is made", async () => {
    const texted = (await outbox(t)).length;
    for (const [name, code] of HOSTILE_TEXT) {
      expectRefused(await api(session(t), "/api/v1/auditor/grants", { method: "POST", body: { ...VIEWER, viewer_name: `Dana ${name}` } }), ["body.viewer_name"], code);
    }
    expect((await outbox(t)).length).toBe(texted);
    const offer = await api(session(t), "/api/v1/auditor/grants", { method: "POST", body: VIEWER });
    const confirm = await api(session(t), `/api/v1/auditor/grants/${offer.body.request_id}/confirm`, {
      method: "POST",
      body: { ...VIEWER, code: "123456", viewer_name: "Dana Whitfield, CPA\u0000" },
    });
    expectRefused(confirm, ["body.viewer_name"], "control_character");
    expect((await api(session(t), "/api/v1/auditor/grants")).body.grants).toEqual([]);
  });

  it("search filters refuse a control character, and a query string that is not UTF-8 is refused by name, never decoded to something else", async () => {
    expectRefused(await api(rw(t), "/api/v1/transactions?q=COFFEE%00"), ["query.q"], "control_character");
    expectRefused(await api(rw(t), "/api/v1/transactions?cat=Meals%09"), ["query.cat"], "control_character");
    expectRefused(await api(rw(t), `/api/v1/reports/pnl-rolling?tenant=${t.tenant}%1B`), ["query.tenant"], "control_character");
    expectRefused(await api(rw(t), "/api/v1/transactions?q=%ED%A0%80"), ["query.q"], "lone_surrogate");
    expectRefused(await api(rw(t), "/api/v1/transactions?q=caf%E9"), ["query.q"], "invalid_encoding");
    expectRefused(await api(rw(t), "/api/v1/transactions?page=1&q=%FF&cat=%ED%BF%BF"), ["query.cat", "query.q"]);
    // Well-formed text of any script is searched for as written.
    const search = await api(rw(t), `/api/v1/transactions?q=${encodeURIComponent("COFFEE SHOP 1")}`);
    expect(search.body.total).toBe(1);
    expect((await api(rw(t), `/api/v1/transactions?q=${encodeURIComponent("café 😀")}`)).status).toBe(200);
  });

  it("the tool face refuses them too: a lone surrogate in a query argument is named, not sent on as U+FFFD", async () => {
    const client = new Client({ name: "strict-input-tests", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
        fetch: (input, init) => SELF.fetch(new Request(input, init)),
        requestInit: { headers: { authorization: `Bearer ${t.tokens.read_write}` } },
      }),
    );
    try {
      const problemOf = (result: any) => JSON.parse(result.content[0].text);
      const search: any = await client.callTool({ name: "list_transactions", arguments: { q: "COFFEE\ud800" } });
      expect(search.isError).toBe(true);
      expect(problemOf(search)).toMatchObject({ status: 400, code: "invalid_request", errors: [{ field: "query.q", code: "lone_surrogate" }] });
      const judged: any = await client.callTool({ name: "categorize", arguments: { side: "A", src_id: 1, category: "Meals\u0000" } });
      expect(problemOf(judged)).toMatchObject({ code: "invalid_request", errors: [{ field: "body.category", code: "control_character" }] });
      const path: any = await client.callTool({ name: "get_transaction", arguments: { side: "A", src_id: "1\udc00" } });
      expect(problemOf(path)).toMatchObject({ code: "invalid_request", errors: [{ field: "path.src_id" }] });
    } finally {
      await client.close();
    }
    expect((await api(rw(t), "/api/v1/transactions/A/1/why")).body.engine).toBe("none");
  });
});

/** Posts a /settings form with the tenant's session, as the browser does. */
async function settingsForm(t: SandboxTenant, path: string, fields: Record<string, string>) {
  const answer = await SELF.fetch(`${BASE}${path}`, {
    method: "POST",
    headers: { cookie: `svc_session=${t.session}`, "content-type": "application/x-www-form-urlencoded", origin: BASE },
    body: new URLSearchParams(fields),
  });
  return { status: answer.status, html: await answer.text() };
}

async function settingsPage(t: SandboxTenant): Promise<string> {
  const answer = await SELF.fetch(`${BASE}/settings`, { headers: { cookie: `svc_session=${t.session}` } });
  expect(answer.status).toBe(200);
  return answer.text();
}

const count = (html: string, marker: string) => html.split(marker).length - 1;

describe("the settings forms hold the same rules", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await createTenant();
  });

  it("a token label, a viewer's name, a sheet, an oracle address or secret with a control character: 400 naming the field, nothing saved", async () => {
    const page = await settingsPage(t);
    const refusals: [string, Record<string, string>, string][] = [
      ["/settings/tokens", { label: "my script\u0000", scope: "read_only" }, "The label contains the control character U+0000 (NUL) at position 9."],
      ["/settings/grants", { viewer_name: "Dana\u001b[2J", viewer_channel: "+15555550123" }, "The viewer&#39;s name contains the control character U+001B (ESC) at position 4."],
      ["/settings/destinations", { spreadsheet_id: "abc", sheet: "Books\t", refresh_token: "1//refresh" }, "The sheet contains the control character U+0009 (TAB) at position 5."],
      ["/settings/destinations", { spreadsheet_id: "abc", sheet: "Books", refresh_token: "1//refresh\u0007" }, "The refresh token contains the control character U+0007 (BEL) at position 10."],
      ["/settings/oracle", { url: "https://reports.example.com/\npnl.json", secret: "" }, "The address contains the control character U+000A (LF) at position 28."],
      ["/settings/oracle", { url: "https://reports.example.com/pnl.json", secret: "s3cret\u0085" }, "The bearer secret contains the control character U+0085 (NEL) at position 6."],
    ];
    for (const [path, fields, notice] of refusals) {
      const answer = await settingsForm(t, path, fields);
      expect(answer.status, path).toBe(400);
      expect(answer.html, path).toContain(notice);
    }
    // The page lists what it listed before: no token, grant request, destination or oracle was saved.
    expect(await settingsPage(t)).toBe(page);
    expect(await outbox(t)).toEqual([]);
  });

  it("a reply draft may run over lines and holds no other control: a refused draft is not saved", async () => {
    const refused = await settingsForm(t, "/settings/messages", { body: "Thanks!\u001b]0;owned\u0007" });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain("The reply contains the control character U+001B (ESC) at position 7");
    expect(count(await settingsPage(t), 'data-testid="draft"')).toBe(0);
    const saved = await settingsForm(t, "/settings/messages", { body: "Thanks!\r\n\tIt was business." });
    expect(saved.status).toBe(201);
    expect(count(await settingsPage(t), 'data-testid="draft"')).toBe(1);
  });

  it("an id in a form's address is an integer in decimal digits: `0x1` revokes nothing", async () => {
    const { grant } = await grantAuditor(t);
    for (const id of [`0x${grant.grant_id.toString(16)}`, `${grant.grant_id}.0`, `0${grant.grant_id}`, `${grant.grant_id}e0`]) {
      const answer = await settingsForm(t, `/settings/grants/${id}/revoke`, {});
      expect(answer.status, id).toBe(400);
      expect(answer.html).toContain("ids are whole numbers in decimal digits");
    }
    expect((await api(session(t), "/api/v1/auditor/grants")).body.grants[0]).toMatchObject({ grant_id: grant.grant_id, status: "live" });
    expect((await settingsForm(t, "/settings/messages/1e0/release", {})).status).toBe(400);
    expect((await settingsForm(t, "/settings/destinations/0x1/disconnect", {})).status).toBe(400);
  });
});

/** No raw C0, DEL or C1 character in an answer's text: JSON carries each as an escape. */
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

describe("bank and carrier text is not ours to refuse", () => {
  const NAME = "ACME\u0000PAYROLL\u001b[2J\u009b31m\tNET\u007f";

  it("is stored as received and answered as JSON escapes, never as raw control characters", async () => {
    const t = await createTenant();
    await deliver(t.tenant, {
      accounts: [{ ...CHECKING, name: "Checking\u0085Main" }],
      added: [txn("c1", { name: NAME, merchant_name: "ACME\u0000" }), txn("c2", { name: "LUNCH\ud800CAFE", merchant_name: "M\udc00" })],
    });
    await landSandboxBank(t);
    for (const path of ["/api/v1/transactions/A/1", "/api/v1/transactions?q=ACME", "/api/v1/accounts", "/api/v1/exceptions"]) {
      const answer = await SELF.fetch(`${BASE}${path}`, { headers: { authorization: `Bearer ${t.tokens.read_write}` } });
      const text = await answer.text();
      expect(answer.status, path).toBe(200);
      expect(RAW_CONTROL.test(text), `${path}: ${JSON.stringify(text)}`).toBe(false);
    }
    const one = await api(rw(t), "/api/v1/transactions/A/1");
    expect(one.body.row.description).toBe(NAME);
    expect(one.body.raw).toMatchObject({ name: NAME, merchant_name: "ACME\u0000" });
    // (A search reads a description up to a NUL, as SQLite's LIKE does: docs/decisions.md, "Input".)
    expect((await api(rw(t), "/api/v1/transactions?q=ACME")).body.rows.map((r: any) => r.description)).toEqual([NAME]);
    expect((await api(rw(t), "/api/v1/accounts")).body.accounts[0].name).toBe("Checking\u0085Main");
    // A lone surrogate cannot live in a text column: the description holds one U+FFFD in
    // its place, and the bank's record keeps what the bank sent.
    const surrogate = await api(rw(t), "/api/v1/transactions/A/2");
    expect(surrogate.body.row.description).toBe("LUNCH\ufffdCAFE");
    expect(surrogate.body.raw).toMatchObject({ name: "LUNCH\ud800CAFE", merchant_name: "M\udc00" });
    // A person's judgement of such a line is still refused only for what the person wrote.
    expect((await post(t, "/api/v1/categorize", { side: "A", src_id: 1, category: "Payroll" })).status).toBe(200);
  });

  it("an inbound text keeps its control characters, and /settings shows them as U+FFFD", async () => {
    const t = await createTenant();
    const sent = "Was that\u0000 business?\u001b[2J\u009b";
    const inbound = (body: string) =>
      SELF.fetch(`${BASE}/sandbox/tenants/${t.tenant}/inbound-sms`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ body }) });
    expect((await inbound(sent)).status).toBe(202);
    expect((await api(rw(t), "/api/v1/messages")).body.messages[0].body).toBe(sent);
    const page = await settingsPage(t);
    expect(page).toContain("Was that\ufffd business?\ufffd[2J\ufffd");
    expect(RAW_CONTROL.test(page.replace(/[\t\n\r]/g, ""))).toBe(false);
    // A carrier delivers UTF-8, which cannot carry a lone surrogate: the sandbox refuses one.
    const refused = await inbound("hi\ud800");
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as any).errors).toMatchObject([{ field: "body.body", code: "lone_surrogate" }]);
    expect((await api(rw(t), "/api/v1/messages")).body.count).toBe(1);
  });
});

describe("integers in a query or a path are decimal digits", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await bookedTenant();
  });

  it("refuses every other spelling Number() would read, naming the parameter", async () => {
    for (const value of ["0x10", "1e1", "%2016", "16.0", "%2B16", "016", "", "0b11", "99999999999999999999", "Infinity"]) {
      const answer = await api(rw(t), `/api/v1/transactions?per_page=${value}`);
      expectRefused(answer, ["query.per_page"]);
      expect(answer.body.errors[0].code, value).toBe("not_an_integer");
    }
    expectRefused(await api(rw(t), "/api/v1/transactions?page=1&page=2"), ["query.page"], "not_an_integer");
    for (const [path, field] of [
      ["/api/v1/messages?limit=1e1", "query.limit"],
      ["/api/v1/usage?days=0x1F", "query.days"],
      ["/api/v1/meter?months=12.0", "query.months"],
      ["/api/v1/sync-history?limit=+5", "query.limit"],
      ["/api/v1/exceptions?page=01", "query.page"],
    ]) {
      expectRefused(await api(rw(t), path!), [field!], "not_an_integer");
    }
  });

  it("takes decimal digits, clamps a value above the cap and refuses one below 1", async () => {
    const page = await api(rw(t), "/api/v1/transactions?per_page=2&page=2");
    expect(page.body).toMatchObject({ page: 2, per_page: 2, total: 3 });
    expect((await api(rw(t), "/api/v1/transactions?per_page=9007199254740991")).body.per_page).toBe(100);
    expectRefused(await api(rw(t), "/api/v1/transactions?per_page=0"), ["query.per_page"], "too_small");
    expectRefused(await api(rw(t), "/api/v1/transactions?per_page=-0"), ["query.per_page"], "too_small");
  });

  it("a path id written any other way names no line, export or grant: `0x1` revokes nothing", async () => {
    for (const id of ["0x1", "1e0", "01", "1.0", "%201", "+1"]) {
      expectRefused(await api(rw(t), `/api/v1/transactions/A/${id}`), ["path.src_id"], "not_an_integer");
      expectRefused(await api(rw(t), `/api/v1/transactions/A/${id}/why`), ["path.src_id"], "not_an_integer");
      expectRefused(await api(rw(t), `/api/v1/exports/${id}`), ["path.export_id"], "not_an_integer");
      expectRefused(await api(rw(t), `/api/v1/exports/${id}/transactions.csv`), ["path.export_id"], "not_an_integer");
    }
    const { grant, request_id } = await grantAuditor(t);
    const hex = `0x${grant.grant_id.toString(16)}`;
    expectRefused(await api(session(t), `/api/v1/auditor/grants/${hex}/revoke`, { method: "POST" }), ["path.grant_id"], "not_an_integer");
    expectRefused(await api(session(t), `/api/v1/auditor/grants/${request_id}e0/confirm`, { method: "POST", body: { ...VIEWER, code: "000000" } }), ["path.request_id"], "not_an_integer");
    expect((await api(session(t), "/api/v1/auditor/grants")).body.grants[0]).toMatchObject({ grant_id: grant.grant_id, status: "live" });
    expect((await api(rw(t), "/api/v1/transactions/A/1")).status).toBe(200);
  });

  it("a JSON body types its own numbers: 1e0 is the number 1, 1.5 and \"1\" are refused", async () => {
    // Deliberate: JSON has one number type, and 1e0 and 1.0 are the same number as 1 to
    // every JSON reader, so a body's integer takes them; a query string has no types, so
    // there only decimal digits say which number was meant.
    const judged = await api(rw(t), "/api/v1/categorize", { method: "POST", body: '{"side":"A","src_id":1e0,"category":"Meals"}' });
    expect(judged.status, JSON.stringify(judged.body)).toBe(200);
    expect(judged.body.row.src_id).toBe(1);
    expectRefused(await post(t, "/api/v1/categorize", { side: "A", src_id: 1.5, category: "Meals" }), ["body.src_id"]);
    expectRefused(await post(t, "/api/v1/categorize", { side: "A", src_id: "2", category: "Meals" }), ["body.src_id"], "invalid_type");
    expectRefused(await post(t, "/api/v1/categorize", { side: "A", src_id: 2 ** 53, category: "Meals" }), ["body.src_id"]);
    expect((await api(rw(t), "/api/v1/transactions/A/2/why")).body.engine).toBe("none");
  });
});

describe("dates are calendar dates from 1900-01-01 to 9999-12-31", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await bookedTenant();
  });

  it("as_of, from and to refuse a year the windows would misread, and a day no calendar has", async () => {
    for (const asOf of ["0000-01-01", "1899-12-31", "0099-06-15"]) {
      expectRefused(await api(rw(t), `/api/v1/reports/pnl-rolling?as_of=${asOf}`), ["query.as_of"], "date_out_of_range");
    }
    for (const asOf of ["2026-02-30", "2026-13-01", "2026-11-1", "+02026-11-01", "2026-11-20T00:00:00Z"]) {
      expectRefused(await api(rw(t), `/api/v1/reports/pnl-rolling?as_of=${encodeURIComponent(asOf)}`), ["query.as_of"], "invalid_format");
    }
    expectRefused(await api(rw(t), "/api/v1/transactions?from=0000-01-01&to=2026-02-29"), ["query.from", "query.to"]);
    const earliest = await api(rw(t), "/api/v1/reports/pnl-rolling?as_of=1900-01-01");
    expect(earliest.status).toBe(200);
    expect(earliest.body.windows["30d"]).toMatchObject({ from: "1899-12-03", prior_from: "1899-11-03" });
    expect((await api(rw(t), "/api/v1/reports/pnl-rolling?as_of=9999-12-31")).status).toBe(200);
    expect((await api(rw(t), "/api/v1/transactions?from=1900-01-01&to=9999-12-31")).body.total).toBe(3);
  });

  it("a parity check's dates too: nothing is filed for a refused day", async () => {
    const oracle = (await api(rw(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-20")).body;
    expectRefused(await post(t, "/api/v1/reports/pnl-parity", { oracle, as_of: "0000-01-01" }), ["body.as_of"], "date_out_of_range");
    expectRefused(await post(t, "/api/v1/reports/pnl-parity", { oracle: { ...oracle, as_of: "1899-12-31" } }), ["body.oracle.as_of"], "date_out_of_range");
    const filed = await post(t, "/api/v1/reports/pnl-parity", { oracle });
    expect(filed.body.verdict).toMatchObject({ as_of: "2026-11-20", revision: 1 });
  });

  it("the sandbox's signup floor and bank dates too: no tenant, no line", async () => {
    const tenant = uniqueSlug("floor");
    const refused = await api(undefined, "/sandbox/tenants", { method: "POST", body: { tenant, visible_from: "0000-01-01" } });
    expectRefused(refused, ["body.visible_from"], "date_out_of_range");
    expect((await api(undefined, "/sandbox/tenants", { method: "POST", body: { tenant, visible_from: "1900-01-01" } })).status).toBe(201);
    const bank = await api(undefined, `/sandbox/tenants/${t.tenant}/bank`, { method: "POST", body: { added: [txn("old", { date: "1899-12-31", authorized_date: "0000-01-01" })] } });
    expectRefused(bank, ["body.added.0.authorized_date", "body.added.0.date"], "date_out_of_range");
    await landSandboxBank(t);
    expect((await api(rw(t), "/api/v1/transactions")).body.total).toBe(3);
  });
});

describe("amounts are whole cents in our own inputs", () => {
  it("the sandbox bank refuses a fraction of a cent instead of rounding it, and queues nothing", async () => {
    const t = await createTenant();
    const bank = (changes: unknown) => api(undefined, `/sandbox/tenants/${t.tenant}/bank`, { method: "POST", body: changes });
    const refused = await bank({ accounts: [CHECKING], added: [txn("ok", { amount: 12.5 }), txn("sub", { amount: 12.345 })], modified: [txn("ok", { amount: 0.1 + 0.2 })] });
    expectRefused(refused, ["body.added.1.amount", "body.modified.0.amount"], "sub_cent_amount");
    expect(refused.body.errors[0].message).toBe("12.345 holds a fraction of a cent; amounts are whole cents (at most two decimal places)");
    await landSandboxBank(t);
    expect((await api(rw(t), "/api/v1/transactions")).body.total).toBe(0);
    // Two decimal places however JSON wrote them: 12.50 is 12.5.
    const taken = await api(undefined, `/sandbox/tenants/${t.tenant}/bank`, {
      method: "POST",
      body: `{"accounts":[${JSON.stringify(CHECKING)}],"added":[{"transaction_id":"x","account_id":"acc_checking","amount":12.50,"date":"2026-11-20","name":"X"},{"transaction_id":"y","account_id":"acc_checking","amount":-3.07,"date":"2026-11-20","name":"Y"}]}`,
    });
    expect(taken.status).toBe(202);
    await landSandboxBank(t);
    expect((await api(rw(t), "/api/v1/transactions")).body.rows.map((r: any) => r.amount_cents).sort()).toEqual([-1250, 307]);
  });

  it("every *_cents a client sends is an integer: a parity assertion of 100.5 cents files nothing", async () => {
    const t = await bookedTenant();
    const oracle = (await api(rw(t), "/api/v1/reports/pnl-rolling?as_of=2026-11-20")).body;
    const local = structuredClone(oracle);
    local.windows["7d"].sections.revenue.current = 100.5;
    expectRefused(await post(t, "/api/v1/reports/pnl-parity", { oracle, local }), ["body.local.windows.7d.sections.revenue.current"]);
    const sub = structuredClone(oracle);
    sub.windows["7d"].sections.biz_expenses.current = 0.5;
    expectRefused(await post(t, "/api/v1/reports/pnl-parity", { oracle: sub }), ["body.oracle.windows.7d.sections.biz_expenses.current"]);
    expect((await post(t, "/api/v1/reports/pnl-parity", { oracle })).body.verdict.revision).toBe(1);
  });
});

describe("one code per kind of refusal", () => {
  let t: SandboxTenant;
  beforeAll(async () => {
    t = await bookedTenant(1);
  });

  it("a body that is not JSON is malformed_json, whitespace alone included; no body is {} and names the missing fields", async () => {
    const json = { "content-type": "application/json" };
    for (const body of ["{", "   ", "\n", "categorize please"]) {
      const answer = await api(rw(t), "/api/v1/categorize", { method: "POST", body, headers: json });
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.code).toBe("malformed_json");
    }
    const empty = await api(rw(t), "/api/v1/categorize", { method: "POST", body: "", headers: json });
    expectRefused(empty, ["body.category", "body.side", "body.src_id"]);
    const none = await SELF.fetch(`${BASE}/api/v1/categorize`, { method: "POST", headers: { authorization: `Bearer ${t.tokens.read_write}` } });
    expect(((await none.json()) as any).errors.map((e: any) => e.field).sort()).toEqual(["body.category", "body.side", "body.src_id"]);
    // An optional body left empty under a JSON content type is no body.
    const { grant } = await grantAuditor(t);
    const revoke = await api(session(t), `/api/v1/auditor/grants/${grant.grant_id}/revoke`, { method: "POST", body: "", headers: json });
    expect(revoke.status, JSON.stringify(revoke.body)).toBe(200);
    expect((await api(rw(t), "/api/v1/run-rules", { method: "POST", body: "", headers: json })).status).toBe(200);
  });

  it("a body declared as anything but JSON, or sent with no type, is unsupported_media_type, with or without content", async () => {
    const cases: [string, { body?: string; headers: Record<string, string> }][] = [
      ["/api/v1/categorize", { body: "side=A", headers: { "content-type": "application/x-www-form-urlencoded" } }],
      ["/api/v1/categorize", { body: "", headers: { "content-type": "text/plain" } }],
      ["/api/v1/sync-now", { body: "", headers: { "content-type": "application/x-www-form-urlencoded" } }],
      ["/api/v1/run-rules", { body: "", headers: { "content-type": "text/plain" } }],
    ];
    for (const [path, init] of cases) {
      const answer = await api(rw(t), path, { method: "POST", ...init });
      expect(answer.status, path).toBe(415);
      expect(answer.body.code, path).toBe("unsupported_media_type");
    }
    const untyped = await SELF.fetch(`${BASE}/api/v1/categorize`, {
      method: "POST",
      headers: { authorization: `Bearer ${t.tokens.read_write}` },
      body: new TextEncoder().encode('{"side":"A","src_id":1,"category":"Meals"}'),
    });
    expect(untyped.status).toBe(415);
    expect((await api(rw(t), "/api/v1/transactions/A/1/why")).body.engine).toBe("none");
  });

  it("a body repeating the path with other values is invalid_request naming the field, for label and revoke alike", async () => {
    const label = await post(t, "/api/v1/transactions/A/1/label", { category: "Meals", src_id: 2 });
    expectRefused(label, ["body.src_id"], "path_body_mismatch");
    const { grant } = await grantAuditor(t, { viewer_name: "Second Viewer", viewer_channel: "+15555550124" });
    const revoke = await api(session(t), `/api/v1/auditor/grants/${grant.grant_id}/revoke`, { method: "POST", body: { grant_id: grant.grant_id + 1 } });
    expectRefused(revoke, ["body.grant_id"], "path_body_mismatch");
    const grants = (await api(session(t), "/api/v1/auditor/grants")).body.grants;
    expect(grants.find((g: any) => g.grant_id === grant.grant_id).status).toBe("live");
    expect((await api(rw(t), "/api/v1/transactions/A/1/why")).body.engine).toBe("none");
  });

  it("a form that cannot be read is malformed_form on the pages and the webhook, never a 500", async () => {
    const broken = { "content-type": "multipart/form-data; boundary=nothing-here", origin: BASE };
    for (const path of ["/signin", "/settings/tokens", "/hooks/sms"]) {
      const answer = await SELF.fetch(`${BASE}${path}`, { method: "POST", headers: { ...broken, cookie: `svc_session=${t.session}` }, body: "not multipart" });
      expect(answer.status, path).toBe(400);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
      expect(((await answer.json()) as any).code, path).toBe("malformed_form");
    }
  });
});
