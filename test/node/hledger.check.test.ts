/**
 * The bank upload as an accounting tool reads it: a sandbox tenant's books are exported by
 * the running service, hledger reads accounting-bank.csv with the repository's rules file,
 * and its transactions and totals must be the books'. Some descriptions are text a
 * spreadsheet would run, or carry control characters: hledger reads them as the file shows
 * them (prefixed with `'`, controls replaced), and the amounts are untouched.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const RULES = fileURLToPath(new URL("../../scripts/hledger/accounting-bank.rules", import.meta.url));
const LINES = 250;

/** Bank descriptions and how the file shows them. */
const HOSTILE: { name: string; shown: string }[] = [
  { name: '=HYPERLINK("http://x","y")', shown: `'=HYPERLINK("http://x","y")` },
  { name: "=cmd|' /C calc'!A0", shown: "'=cmd|' /C calc'!A0" },
  { name: "+1+2", shown: "'+1+2" },
  { name: "-REFUND", shown: "'-REFUND" },
  { name: "@SUM(1,2)", shown: "'@SUM(1,2)" },
  { name: "\t=1+1", shown: "' =1+1" },
  { name: "\r=1+1", shown: "' =1+1" },
  { name: "  -2", shown: "'  -2" },
  { name: "REF 9;=1+1", shown: "REF 9;'=1+1" },
  { name: "NUL\u0000ESC\u001b[31mNEL\u0085CSI\u009bEND", shown: "NUL\ufffdESC\ufffd[31mNEL CSI\ufffdEND" },
  { name: "two\r\nlines", shown: "two lines" },
];

interface HledgerTransaction {
  tdate: string;
  tdescription: string;
  tpostings: { paccount: string; pamount: { aquantity: { decimalMantissa: number; decimalPlaces: number } }[] }[];
}

let token: string;
const work = mkdtempSync(join(tmpdir(), "ledger-hledger-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers } });
}

async function json(path: string, init: RequestInit = {}): Promise<any> {
  const answer = await call(path, init);
  const text = await answer.text();
  expect(answer.ok, `${path}: ${text.slice(0, 300)}`).toBe(true);
  return JSON.parse(text);
}

function hledger(file: string, ...args: string[]): string {
  // A UTF-8 locale: hledger decodes its input by the locale, and the file carries U+FFFD.
  return execFileSync("hledger", ["-f", file, "--rules-file", RULES, ...args], { encoding: "utf8", env: { ...process.env, LC_ALL: "C.UTF-8" } });
}

/** A posting's amount in integer cents, from hledger's decimal mantissa. */
function postingCents(amount: { aquantity: { decimalMantissa: number; decimalPlaces: number } }): number {
  return Math.round(amount.aquantity.decimalMantissa * 10 ** (2 - amount.aquantity.decimalPlaces));
}

describe("accounting-bank.csv read by hledger", () => {
  let me: any;
  let csvPath: string;
  let expected: { date: string; description: string; cents: number }[];

  beforeAll(async () => {
    const tenant = `hledger-${Date.now().toString(36)}`;
    const created = await fetch(`${baseUrl}/sandbox/tenants`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tenant }) });
    expect(created.status).toBe(201);
    token = ((await created.json()) as any).tokens.read_write;

    // Lines with commas, quotes, cents and both signs, text a spreadsheet would run, control
    // characters, a pending one and a retracted one.
    const added = Array.from({ length: LINES }, (_, i) => ({
      transaction_id: `h${i}`,
      account_id: "acc_checking",
      amount: (((i % 7) - 3) * 10137 + i) / 100, // whole cents, as the sandbox bank takes them
      date: `2026-${String(9 + (i % 3)).padStart(2, "0")}-${String(1 + (i % 28)).padStart(2, "0")}`,
      name: i % 20 === 1 ? HOSTILE[((i - 1) / 20) % HOSTILE.length]!.name : i % 5 === 0 ? `CLIENT "${i}", LLC` : `VENDOR ${i}`,
      pending: i === 7,
    }));
    expect(HOSTILE.every((h) => added.some((line) => line.name === h.name))).toBe(true);
    const bank = (body: unknown) =>
      fetch(`${baseUrl}/sandbox/tenants/${tenant}/bank`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    expect((await bank({ accounts: [{ account_id: "acc_checking", name: "Checking" }], added })).status).toBe(202);
    expect((await bank({ removed: [{ transaction_id: "h11" }] })).status).toBe(202);
    const request = await json("/api/v1/sync-now", { method: "POST" });
    for (let i = 0; ; i++) {
      const runs = (await json("/api/v1/sync-history")).runs;
      if (runs.some((r: any) => r.request_id === request.request_id && r.final)) break;
      if (i > 600) throw new Error("the sync did not finish");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    me = await json("/api/v1/me");
    // The pending line and the retracted one are not in the books.
    expect(me.booked).toBe(LINES - 2);
    const receipt = await json("/api/v1/export", { method: "POST", body: "{}" });
    expect(receipt).toMatchObject({ kind: "bundle", destinations: "known" });
    const download = await call(new URL(receipt.urls["accounting-bank.csv"]).pathname);
    expect(download.status).toBe(200);
    csvPath = join(work, "accounting-bank.csv");
    writeFileSync(csvPath, await download.text());

    // The books, as the file shows them.
    const shown = new Map(HOSTILE.map((h) => [h.name, h.shown]));
    expected = [];
    for (let page = 1; ; page++) {
      const listed = await json(`/api/v1/transactions?per_page=100&page=${page}`);
      for (const row of listed.rows) {
        if (row.in_books) expected.push({ date: row.posted_on, description: shown.get(row.description) ?? row.description, cents: row.amount_cents });
      }
      if (listed.rows.length < 100) break;
    }
  });

  it("reads every booked line, and no other", () => {
    const transactions = JSON.parse(hledger(csvPath, "print", "-O", "json")) as HledgerTransaction[];
    expect(me.booked).toBe(expected.length);
    expect(transactions).toHaveLength(me.booked);
    const read = transactions.map((t) => {
      const bank = t.tpostings.find((p) => p.paccount === "assets:bank")!;
      return { date: t.tdate, description: t.tdescription, cents: postingCents(bank.pamount[0]!) };
    });
    const order = (a: { date: string; description: string; cents: number }, b: typeof a) =>
      a.date.localeCompare(b.date) || a.description.localeCompare(b.description) || a.cents - b.cents;
    expect(read.sort(order)).toEqual([...expected].sort(order));
  });

  it("totals the bank account to the books' total", () => {
    const balance = hledger(csvPath, "balance", "-N", "-O", "csv", "assets:bank").trim().split("\n").at(-1)!;
    const dollars = /"\$(-?[\d.]+)"$/.exec(balance)?.[1];
    expect(dollars, balance).toBeDefined();
    expect(Math.round(Number(dollars) * 100)).toBe(me.total_cents);
  });
});
