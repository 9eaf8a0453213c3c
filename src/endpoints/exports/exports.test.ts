/**
 * export_books without a destination: the receipt, the four files parsed back and matched
 * to the books, their reproducibility after the books change, and who may do what.
 */
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { cents, csvRecords, formulasSplitOnSemicolons, parseCsv, parseIif, spreadsheetReads } from "../../../test/fixtures/export-files";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, BASE, CHECKING, createTenant, deliver, judge, ro, rw, session, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";

const CARD = { account_id: "acc_card", name: "Business Visa", mask: "7711", type: "credit", subtype: "credit card" };

// Aggregator sign: positive = money out.
const LINES = [
  txn("sale", { name: 'ACME, INC. "INVOICE 7"', amount: -1234.5, date: "2026-11-03" }),
  txn("rent", { name: "LANDLORD RENT", amount: 2000, date: "2026-11-01" }),
  txn("cafe", { name: "SQ *BLUE BOTTLE", amount: 12.5, date: "2026-11-05", account_id: "acc_card" }),
  txn("mystery", { name: "WIRE 0042", amount: 3.2, date: "2026-11-06" }),
  txn("refund", { name: "VENDOR REFUND", amount: -40, date: "2026-11-07" }),
  txn("gone", { name: "BANK FEE", amount: 5, date: "2026-11-08" }),
  txn("held", { name: "PENDING HOLD", amount: 77, date: "2026-11-09", pending: true }),
];

async function download(t: SandboxTenant, url: string, credential = ro(t)) {
  const answer = await SELF.fetch(url, { headers: { authorization: `Bearer ${credential.bearer}` } });
  return { status: answer.status, type: answer.headers.get("content-type"), disposition: answer.headers.get("content-disposition"), text: await answer.text() };
}

async function bookedTenant(): Promise<SandboxTenant> {
  const t = await createTenant();
  await deliver(t.tenant, { accounts: [CHECKING, CARD], added: LINES });
  await landSandboxBank(t);
  // A duplicate arrival (archived B twin) and a retraction: neither is in the books.
  await deliver(t.tenant, { added: [LINES[0]], removed: [{ transaction_id: "gone" }] });
  await landSandboxBank(t);
  for (const [name, header] of [["Sales", "income"], ["Rent", "expense"], ["Meals", "expense"]]) {
    expect((await api(rw(t), "/api/v1/new-category", { method: "POST", body: { name, header } })).status).toBe(200);
  }
  const rows = (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows;
  const idOf = (description: string) => rows.find((r: any) => r.side === "A" && r.description === description).src_id;
  await judge(t, idOf('ACME, INC. "INVOICE 7"'), "Sales");
  await judge(t, idOf("LANDLORD RENT"), "Rent");
  await judge(t, idOf("SQ *BLUE BOTTLE"), "Meals");
  // A label the taxonomy does not hold: exported with no header.
  await judge(t, idOf("VENDOR REFUND"), "Refunds");
  return t;
}

describe("export_books without a destination", () => {
  let t: SandboxTenant;
  let receipt: any;
  let me: any;
  const files: Record<string, { status: number; type: string | null; disposition: string | null; text: string }> = {};

  beforeAll(async () => {
    t = await bookedTenant();
    me = (await api(ro(t), "/api/v1/me")).body;
    const answer = await api(rw(t), "/api/v1/export", { method: "POST", body: {} });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    receipt = answer.body;
    for (const [file, url] of Object.entries<string>(receipt.urls)) files[file] = await download(t, url);
  });

  it("returns a receipt: the export id, row counts, four URLs and `known` destinations", () => {
    expect(receipt).toMatchObject({
      kind: "bundle",
      export_id: expect.any(Number),
      destinations: "known",
      row_counts: { "transactions.csv": 5, "accounting-bank.csv": 5, "accounting.iif": 5, "accounts.csv": 2 },
    });
    expect(me.booked).toBe(5);
    for (const file of ["transactions.csv", "accounts.csv", "accounting-bank.csv", "accounting.iif"]) {
      expect(receipt.urls[file]).toBe(`${BASE}/api/v1/exports/${receipt.export_id}/${file}`);
      expect(files[file]!.status, file).toBe(200);
      expect(files[file]!.disposition).toBe(`attachment; filename="${file}"`);
    }
    expect(files["transactions.csv"]!.type).toBe("text/csv; charset=utf-8");
    expect(files["accounting.iif"]!.type).toBe("text/plain; charset=utf-8");
  });

  it("writes transactions.csv (RFC 4180) with the booked lines only, matching the books", () => {
    const records = csvRecords(files["transactions.csv"]!.text);
    expect(parseCsv(files["transactions.csv"]!.text)[0]).toEqual(["date", "description", "amount", "category", "header", "account", "side", "id", "state"]);
    expect(records).toHaveLength(receipt.row_counts["transactions.csv"]);
    expect(records.map((r) => r.description)).toEqual(["LANDLORD RENT", 'ACME, INC. "INVOICE 7"', "SQ *BLUE BOTTLE", "WIRE 0042", "VENDOR REFUND"]);
    expect(records.every((r) => r.state === "in books" && r.side === "A")).toBe(true);
    expect(records.reduce((sum, r) => sum + cents(r.amount!), 0)).toBe(me.total_cents);
    expect(records.find((r) => r.description!.startsWith("ACME"))).toMatchObject({ amount: "1234.50", category: "Sales", header: "income", account: "acc_checking" });
    expect(records.find((r) => r.description === "VENDOR REFUND")).toMatchObject({ category: "Refunds", header: "" });
    expect(records.find((r) => r.description === "WIRE 0042")).toMatchObject({ category: "", header: "" });
    // Per category, the file's totals are the books'.
    for (const c of me.by_category) {
      const label = c.category === "uncategorised" ? "" : c.category;
      expect(records.filter((r) => r.category === label).reduce((sum, r) => sum + cents(r.amount!), 0), c.category).toBe(c.total_cents);
    }
  });

  it("writes accounts.csv with each account's booked lines and total", () => {
    expect(csvRecords(files["accounts.csv"]!.text)).toEqual([
      { account_id: "acc_card", name: "Business Visa", mask: "7711", type: "credit", subtype: "credit card", booked_lines: "1", booked_total: "-12.50" },
      { account_id: "acc_checking", name: "Business Checking", mask: "0042", type: "depository", subtype: "checking", booked_lines: "4", booked_total: "-728.70" },
    ]);
  });

  it("writes the 3-column bank upload: MM/DD/YYYY, negative = money out, plain numbers", () => {
    const rows = parseCsv(files["accounting-bank.csv"]!.text);
    expect(rows[0]).toEqual(["Date", "Description", "Amount"]);
    expect(rows.slice(1)).toContainEqual(["11/03/2026", 'ACME, INC. "INVOICE 7"', "1234.50"]);
    expect(rows.slice(1)).toContainEqual(["11/01/2026", "LANDLORD RENT", "-2000.00"]);
    for (const [date, , amount] of rows.slice(1)) {
      expect(date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
      expect(amount).toMatch(/^-?\d+\.\d{2}$/);
    }
    expect(rows.slice(1).reduce((sum, r) => sum + cents(r[2]!), 0)).toBe(me.total_cents);
  });

  it("writes a balanced IIF that carries the categories and their account types", () => {
    const iif = parseIif(files["accounting.iif"]!.text);
    expect(iif.accounts).toEqual([
      { name: "Business Visa (7711)", type: "CCARD" },
      { name: "Business Checking (0042)", type: "BANK" },
      { name: "Uncategorized Expense", type: "EXP" },
      { name: "Meals", type: "EXP" },
      { name: "Refunds", type: "INC" },
      { name: "Rent", type: "EXP" },
      { name: "Sales", type: "INC" },
    ]);
    expect(iif.transactions).toHaveLength(receipt.row_counts["accounting.iif"]);
    const declared = new Set(iif.accounts.map((a) => a.name));
    let bankTotal = 0;
    for (const block of iif.transactions) {
      expect(block.map((r) => r[0])).toEqual(["TRNS", "SPL"]);
      expect(block.reduce((sum, r) => sum + cents(r[5]!), 0)).toBe(0);
      for (const r of block) expect(declared.has(r[4]!), r[4]).toBe(true);
      bankTotal += cents(block[0]![5]!);
    }
    expect(bankTotal).toBe(me.total_cents);
    const sale = iif.transactions.find((b) => b[0]![6]!.startsWith("ACME"))!;
    expect(sale.map((r) => [r[2], r[3], r[4], r[5]])).toEqual([
      ["DEPOSIT", "11/03/2026", "Business Checking (0042)", "1234.50"],
      ["DEPOSIT", "11/03/2026", "Sales", "-1234.50"],
    ]);
  });

  it("reads the same later: the files are the books as of the export", async () => {
    const rows = (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows;
    await judge(t, rows.find((r: any) => r.description === "LANDLORD RENT").src_id, "Meals");
    await deliver(t.tenant, { added: [txn("late", { name: "LATE SALE", amount: -10, date: "2026-11-02" })], removed: [{ transaction_id: "mystery" }] });
    await landSandboxBank(t);
    expect((await api(rw(t), "/api/v1/new-category", { method: "POST", body: { name: "Refunds", header: "income" } })).status).toBe(200);

    for (const [file, url] of Object.entries<string>(receipt.urls)) expect((await download(t, url)).text, file).toBe(files[file]!.text);
    const again = await api(ro(t), `/api/v1/exports/${receipt.export_id}`);
    expect(again.body).toEqual(receipt);

    const fresh = (await api(rw(t), "/api/v1/export", { method: "POST", body: {} })).body;
    expect(fresh.export_id).toBeGreaterThan(receipt.export_id);
    const now = csvRecords((await download(t, fresh.urls["transactions.csv"])).text);
    expect(now.map((r) => r.description)).toEqual(["LANDLORD RENT", "LATE SALE", 'ACME, INC. "INVOICE 7"', "SQ *BLUE BOTTLE", "VENDOR REFUND"]);
    expect(now.find((r) => r.description === "LANDLORD RENT")).toMatchObject({ category: "Meals", header: "expense" });
    expect(now.find((r) => r.description === "VENDOR REFUND")).toMatchObject({ category: "Refunds", header: "income" });
  });
});

describe("export_books with bank text a spreadsheet would run, or that carries control characters", () => {
  // Every field a bank or a tenant sets, hostile: the account's id, name, mask and subtype,
  // the descriptions, a category and a label.
  const ACCOUNT = { account_id: "@acc", name: "=Checking", mask: "-42", type: "depository", subtype: "+checking" };
  const on = (id: string, name: string, amount: number, day: number) => txn(id, { name, amount, date: `2026-11-${String(day).padStart(2, "0")}`, account_id: "@acc" });
  const HOSTILE = [
    on("link", '=HYPERLINK("http://x","y")', 12.5, 1),
    on("plus", "+1+2", 30, 2),
    on("minus", "-REFUND", -40, 3),
    on("at", "@SUM(1,2)", 7, 4),
    on("tab", "\t=1+1", 1, 5),
    on("space", "  =1+1", 2, 6),
    on("semicolon", "REF 9;=1+1", 3, 7),
    on("controls", "NUL\u0000ESC\u001b[31mNEL\u0085CSI\u009bEND", 4, 8),
    on("lines", "two\tfields\r\nand lines", 5, 9),
  ];
  // What a person opening each file sees in the description cell, in the lines' order.
  const SHOWN = [
    `'=HYPERLINK("http://x","y")`,
    "'+1+2",
    "'-REFUND",
    "'@SUM(1,2)",
    "' =1+1",
    "'  =1+1",
    "REF 9;'=1+1",
    "NUL\ufffdESC\ufffd[31mNEL CSI\ufffdEND",
    "two fields and lines",
  ];
  let t: SandboxTenant;
  let me: any;
  const files: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, { accounts: [ACCOUNT], added: HOSTILE });
    await landSandboxBank(t);
    expect((await api(rw(t), "/api/v1/new-category", { method: "POST", body: { name: "+Fees", header: "expense" } })).status).toBe(200);
    const rows = (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows;
    await judge(t, rows.find((r: any) => r.description === "+1+2").src_id, "+Fees");
    await judge(t, rows.find((r: any) => r.description === "-REFUND").src_id, "-Refunds");
    me = (await api(ro(t), "/api/v1/me")).body;
    const receipt = (await api(rw(t), "/api/v1/export", { method: "POST", body: {} })).body;
    for (const [file, url] of Object.entries<string>(receipt.urls)) files[file] = (await download(t, url)).text;
  });

  it("keeps the books as the bank sent them: only the files show the text differently", async () => {
    const answer = await SELF.fetch(`${BASE}/api/v1/transactions?per_page=100`, { headers: { authorization: `Bearer ${t.tokens.read_only}` } });
    const raw = await answer.text();
    // JSON escapes every control, C1 included (src/http/json-controls.ts); it reads back as sent.
    expect(raw).toContain("NUL\\u0000ESC\\u001b[31mNEL\\u0085CSI\\u009bEND");
    const stored = JSON.parse(raw).rows.map((r: any) => r.description).reverse();
    expect(JSON.stringify(stored)).toBe(JSON.stringify(HOSTILE.map((l) => l.name)));
  });

  it("writes transactions.csv with every text cell read as text, one record a line, amounts as numbers", () => {
    const text = files["transactions.csv"]!;
    const records = csvRecords(text);
    expect(text.split("\r\n")).toHaveLength(HOSTILE.length + 2);
    expect(JSON.stringify(records.map((r) => r.description))).toBe(JSON.stringify(SHOWN));
    for (const r of records) {
      for (const [column, cell] of Object.entries(r)) expect(spreadsheetReads(cell), `${column}: ${cell}`).toBe(["amount", "id"].includes(column) ? "number" : "text");
      expect(r.account).toBe("'@acc");
    }
    expect(records.find((r) => r.description === "'+1+2")).toMatchObject({ amount: "-30.00", category: "'+Fees", header: "expense" });
    expect(records.find((r) => r.description === "'-REFUND")).toMatchObject({ amount: "40.00", category: "'-Refunds", header: "" });
    expect(records.reduce((sum, r) => sum + cents(r.amount!), 0)).toBe(me.total_cents);
    expect(formulasSplitOnSemicolons(text)).toEqual([]);
  });

  it("writes accounts.csv with the account's id, name, mask and subtype read as text", () => {
    expect(csvRecords(files["accounts.csv"]!)).toEqual([
      { account_id: "'@acc", name: "'=Checking", mask: "'-42", type: "depository", subtype: "'+checking", booked_lines: "9", booked_total: "-24.50" },
    ]);
    expect(me.total_cents).toBe(-2450);
  });

  it("writes the bank upload with the descriptions read as text and the amounts as numbers", () => {
    const rows = parseCsv(files["accounting-bank.csv"]!);
    expect(rows).toHaveLength(HOSTILE.length + 1);
    expect(JSON.stringify(rows.slice(1).map((r) => r[1]))).toBe(JSON.stringify(SHOWN));
    for (const [date, description, amount] of rows.slice(1)) {
      expect([date, description, amount].map((cell) => spreadsheetReads(cell!))).toEqual(["text", "text", "number"]);
    }
    expect(rows.slice(1).reduce((sum, r) => sum + cents(r[2]!), 0)).toBe(me.total_cents);
    expect(formulasSplitOnSemicolons(files["accounting-bank.csv"]!)).toEqual([]);
  });

  it("writes an IIF whose records stay whole and balanced, every name and memo read as text", () => {
    const iif = parseIif(files["accounting.iif"]!);
    expect(iif.accounts).toEqual([
      { name: "'=Checking (-42)", type: "BANK" },
      { name: "Uncategorized Expense", type: "EXP" },
      { name: "'+Fees", type: "EXP" },
      { name: "'-Refunds", type: "INC" },
    ]);
    // An IIF field's edge spaces are trimmed.
    const memos = [...SHOWN.slice(0, 4), "'=1+1", "'=1+1", ...SHOWN.slice(6)];
    expect(JSON.stringify(iif.transactions.map((b) => b[0]![6]))).toBe(JSON.stringify(memos));
    for (const block of iif.transactions) {
      expect(block.map((r) => r[0])).toEqual(["TRNS", "SPL"]);
      for (const record of block) {
        expect(record).toHaveLength(7);
        expect(record.map(spreadsheetReads), record.join(" | ")).toEqual(["text", "text", "text", "text", "text", "number", "text"]);
      }
      expect(block.reduce((sum, r) => sum + cents(r[5]!), 0)).toBe(0);
    }
    expect(iif.transactions.reduce((sum, b) => sum + cents(b[0]![5]!), 0)).toBe(me.total_cents);
  });
});

describe("export_books: credentials and tenants", () => {
  let owner: SandboxTenant;
  let other: SandboxTenant;
  let receipt: any;
  beforeAll(async () => {
    owner = await bookedTenant();
    other = await createTenant();
    receipt = (await api(session(owner), "/api/v1/export", { method: "POST", body: {} })).body;
  });

  it("is a write: a read-only token is 403 and no export is made", async () => {
    const refused = await api(ro(owner), "/api/v1/export", { method: "POST", body: {} });
    expect(refused.body).toMatchObject({ status: 403, code: "read_only_token" });
    expect((await api(ro(owner), `/api/v1/exports/${receipt.export_id + 1}`)).status).toBe(404);
  });

  it("lets a read-only token read and download", async () => {
    expect((await api(ro(owner), `/api/v1/exports/${receipt.export_id}`)).body).toMatchObject({ kind: "bundle", export_id: receipt.export_id });
    expect((await download(owner, receipt.urls["accounts.csv"])).status).toBe(200);
  });

  it("answers 404, never 403, for another tenant's export", async () => {
    for (const path of [`/api/v1/exports/${receipt.export_id}`, `/api/v1/exports/${receipt.export_id}/transactions.csv`]) {
      const answer = await api(rw(other), path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("validates the body and the path", async () => {
    const bad = await api(rw(owner), "/api/v1/export", { method: "POST", body: { destination_id: "three" } });
    expect(bad.body).toMatchObject({ status: 400, errors: [expect.objectContaining({ field: "body.destination_id" })] });
    const file = await api(ro(owner), `/api/v1/exports/${receipt.export_id}/books.xlsx`);
    expect(file.body).toMatchObject({ status: 400, errors: [expect.objectContaining({ field: "path.file" })] });
    expect((await api(rw(owner), "/api/v1/export", { method: "POST", body: { destination_id: 999999 } })).status).toBe(404);
  });

  it("exports an empty book as headers only", async () => {
    const empty = (await api(rw(other), "/api/v1/export", { method: "POST", body: {} })).body;
    expect(empty.row_counts).toEqual({ "transactions.csv": 0, "accounts.csv": 0, "accounting-bank.csv": 0, "accounting.iif": 0 });
    expect(parseCsv((await download(other, empty.urls["transactions.csv"])).text)).toHaveLength(1);
    expect(parseIif((await download(other, empty.urls["accounting.iif"])).text)).toEqual({ accounts: [], transactions: [] });
  });
});
