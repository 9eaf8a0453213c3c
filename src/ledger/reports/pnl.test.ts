/**
 * The rolling P&L over random histories (lines around both windows in several currencies,
 * pending lines posting, modifications, removals, duplicates, judgements with labels the
 * taxonomy holds or not and relabels back to the queue, rules, rules retired, run_rules
 * over the book, taxonomy entries appearing later, the books' currency changing), on every
 * kind of face and two `as_of` days:
 * - the kept daily figures equal their derivation (relation C's drift is zero);
 * - the totals form (read from the kept figures) is the full form (read from the rows)
 *   without its transactions;
 * - every number equals one recomputed here, line by line, from relation C's definition;
 * - paging list_pnl_transactions through every part of every window gives exactly the
 *   transactions the full form lists there, and its `total` counts them;
 * - the auditor view's add-backs, paged by the kept daily figures, are its full list.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays } from "../../clock";
import type { FeedPage } from "../../providers/bank/types";
import { relationCDrift } from "../../../test/support/relation-c-drift";
import { createCategory, normalName, taxonomy } from "../books/categories";
import { currentBooksCurrency, setBooksCurrency } from "../books/currency";
import { recordHumanJudgement } from "../books/judgements";
import { faceFor, type Face } from "../face";
import { applyFeedPage, currentCursor } from "../feed/feed-pages";
import { connectBank } from "../feed/sync-requests";
import { createRule, createRules, retireRule } from "../rules/rulebook";
import { runRules } from "../rules/run-rules";
import type { LedgerDb } from "../store/db";
import type { TenantLedger } from "../tenant-ledger";
import { auditorViewJson } from "./auditor";
import { PNL_PARTS, pnlTransactionsPage } from "./pnl-transactions";
import { DERIVED, rollingPnlJson, SECTIONS, WINDOWS, type BaseSection, type WindowName } from "./pnl";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const AT = NOW.toISOString();
const FACES: Record<string, Face> = {
  "no floor": faceFor({ tier: "paid", visibleFrom: null }, NOW),
  "a paid floor": faceFor({ tier: "paid", visibleFrom: "2026-11-10" }, NOW),
  "the free window": faceFor({ tier: "free", visibleFrom: null }, NOW),
};
const AS_OF = ["2026-11-20", "2026-11-21"];

const ids = fc.constantFrom("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9");
const feedLine = fc.record({
  transaction_id: ids,
  account_id: fc.constantFrom("checking", "card"),
  amount: fc.constantFrom(12.5, -40, 7, -3.25, 1000),
  // Before, inside and after both windows of both days, and on their edges.
  date: fc.constantFrom("2026-09-21", "2026-09-22", "2026-10-21", "2026-10-22", "2026-11-07", "2026-11-13", "2026-11-14", "2026-11-20", "2026-11-21"),
  name: fc.constantFrom("COFFEE", "RENT", "STRIPE PAYOUT", "ATM"),
  pending: fc.boolean(),
  pending_transaction_id: fc.option(ids, { nil: undefined }),
  iso_currency_code: fc.constantFrom(undefined, null, "USD", "EUR", " usd", ""),
  unofficial_currency_code: fc.constantFrom(undefined, undefined, "BTC"),
});
const LABELS = ["Sales", "sales ", "Stock", "Rent", "Owner", "Savings", "Mystery", "uncategorized"];
const ENTRIES: [string, "income" | "cogs" | "expense" | "draw" | "transfer"][] = [
  ["Sales", "income"],
  ["Stock", "cogs"],
  ["Rent", "expense"],
  ["Owner", "draw"],
  ["Savings", "transfer"],
  ["Mystery", "expense"],
];
const step = fc.oneof(
  fc.record({
    kind: fc.constant("page" as const),
    added: fc.array(feedLine, { maxLength: 5 }),
    modified: fc.array(feedLine, { maxLength: 2 }),
    removed: fc.array(ids, { maxLength: 2 }),
  }),
  fc.record({ kind: fc.constant("judge" as const), aId: fc.integer({ min: 1, max: 14 }), category: fc.constantFrom(...LABELS) }),
  // A rule made alone decides its lines at once; made with others (create_rules), it waits for run_rules.
  fc.record({
    kind: fc.constant("rule" as const),
    key: fc.constantFrom("r1", "r2"),
    word: fc.constantFrom("COFFEE", "RENT", "ATM"),
    category: fc.constantFrom(...LABELS.slice(0, 7)),
    alone: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("retire" as const), key: fc.constantFrom("r1", "r2") }),
  // run_rules' own writes (decisions appended in slices), over lines a rule left or a relabel queued again.
  fc.record({ kind: fc.constant("run" as const), linesPerSlice: fc.constantFrom(1, 3, 100) }),
  fc.record({ kind: fc.constant("entry" as const), entry: fc.constantFrom(...ENTRIES) }),
  fc.record({ kind: fc.constant("currency" as const), currency: fc.constantFrom("USD", "EUR") }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

async function apply(db: LedgerDb, connection: number, s: Step, n: number): Promise<void> {
  if (s.kind === "page") {
    const cursor = currentCursor(db, connection);
    const page: FeedPage = {
      cursorBefore: cursor,
      nextCursor: `${cursor}.${n}`,
      hasMore: false,
      accounts: [],
      added: s.added,
      modified: s.modified,
      removed: s.removed.map((transaction_id) => ({ transaction_id })),
    };
    applyFeedPage(db, connection, page, AT);
  } else if (s.kind === "judge") {
    recordHumanJudgement(db, s.aId, s.category, "human:pnl", AT);
  } else if (s.kind === "rule") {
    const rule = { rule_key: s.key, match_kind: "description_exact" as const, match_value: s.word, category: s.category };
    if (s.alone) createRule(db, rule, "human:pnl", AT, null);
    else createRules(db, [rule], "human:pnl", AT);
  } else if (s.kind === "retire") {
    retireRule(db, s.key, "human:pnl", AT);
  } else if (s.kind === "run") {
    await runRules(db, null, AT, undefined, s.linesPerSlice);
  } else if (s.kind === "entry") {
    createCategory(db, { name: s.entry[0], header: s.entry[1] }, "human:pnl", AT);
  } else {
    setBooksCurrency(db, s.currency, "human:pnl", AT);
  }
}

const NATURAL: Record<BaseSection, 1 | -1> = { revenue: 1, cogs: -1, biz_expenses: -1, owners_draw: -1 };
const SECTION_OF = { income: "revenue", cogs: "cogs", expense: "biz_expenses", draw: "owners_draw" } as const;

/** Every number of the report, recomputed line by line from relation C's definition. */
function recomputed(db: LedgerDb, face: Face, asOf: string) {
  const books = currentBooksCurrency(db).currency;
  const headerOf = new Map(taxonomy(db).map((e) => [normalName(e.name), e.header_key]));
  const rows = db.all<{ side: string; src_id: number; posted_on: string; amount_cents: number; category: string | null; currency: string | null }>(
    sql`SELECT side, src_id, posted_on, amount_cents, category, currency FROM c_rows_derived WHERE state = 'in books'`,
  );
  const out: Record<string, unknown> = {};
  for (const [window, days] of Object.entries(WINDOWS)) {
    const from = addDays(asOf, -days + 1);
    const priorFrom = addDays(from, -days);
    const numbers = Object.fromEntries(["revenue", "cogs", "biz_expenses", "owners_draw", "unknown", "foreign"].map((k) => [k, { current: 0, prior: 0 }]));
    for (const r of rows) {
      if (r.posted_on < priorFrom || r.posted_on > asOf || (face.effectiveFrom !== null && r.posted_on < face.effectiveFrom)) continue;
      const period = r.posted_on >= from ? "current" : "prior";
      if (r.currency !== null && r.currency !== books) {
        numbers.foreign![period] += 1;
        continue;
      }
      const header = r.category === null ? undefined : headerOf.get(normalName(r.category));
      if (header === "transfer") continue;
      if (header === undefined) numbers.unknown![period] += r.amount_cents;
      else numbers[SECTION_OF[header]]![period] += NATURAL[SECTION_OF[header]] * r.amount_cents;
    }
    const derived = (parts: [BaseSection, 1 | -1][]) => ({
      current: parts.reduce((t, [p, sign]) => t + sign * numbers[p]!.current, 0),
      prior: parts.reduce((t, [p, sign]) => t + sign * numbers[p]!.prior, 0),
    });
    out[window] = {
      ...numbers,
      gross_margin: derived(DERIVED.gross_margin!),
      net_income: derived(DERIVED.net_income!),
    };
  }
  return out;
}

/** The same numbers as the report gives them. */
function reported(report: any) {
  const out: Record<string, unknown> = {};
  for (const window of Object.keys(WINDOWS)) {
    const w = report.windows[window];
    out[window] = {
      ...Object.fromEntries(SECTIONS.map((s) => [s, { current: w.sections[s].current, prior: w.sections[s].prior }])),
      unknown: { current: w.unknown_label.current, prior: w.unknown_label.prior },
      foreign: { current: w.foreign_currency.current, prior: w.foreign_currency.prior },
    };
  }
  return out;
}

/** The full form without what only it lists. */
function withoutTransactions(full: any) {
  const copy = structuredClone(full);
  copy.form = "totals";
  for (const w of Object.values<any>(copy.windows)) {
    for (const s of Object.values<any>(w.sections)) for (const l of s.lines) delete l.transactions;
    delete w.unknown_label.transactions;
  }
  return copy;
}

/** `side:src_id:period` of every transaction the full form lists under one part of a window. */
function listedIn(full: any, window: WindowName, part: (typeof PNL_PARTS)[number]): string[] {
  const w = full.windows[window];
  const entries = part === "unknown_label" ? w.unknown_label.transactions : w.sections[part].lines.flatMap((l: any) => l.transactions);
  return entries.map((t: any) => `${t.side}:${t.src_id}:${t.period}`).sort();
}

describe("the rolling P&L", () => {
  it("reads the kept daily figures as a full recomputation reads the lines, after any history", async () => {
    let tenant = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 14 }), async (steps) => {
        const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(`pnl-${tenant++}`));
        await runInDurableObject(stub, async (instance: TenantLedger) => {
          const db = instance.db;
          const connection = connectBank(db, "sandbox", "", AT);
          for (const [n, s] of steps.entries()) await apply(db, connection, s, n);
          expect(relationCDrift(db)).toEqual({ rows: 0, totals: 0, floorTotals: 0, months: 0, days: 0, words: 0 });
          for (const [name, face] of Object.entries(FACES)) {
            const full = JSON.parse(auditorViewJson(db, face, 1, { form: "full", page: 1, perPage: 0 }));
            const pages: any[] = [];
            for (let page = 1; page < 50; page++) {
              const view = JSON.parse(auditorViewJson(db, face, 1, { form: "paged", page, perPage: 2 }));
              expect(view.receipts.map((r: any) => r.src_id), `${name}, add-backs page ${page}`).toEqual(view.pocket_flagged.map((p: any) => p.src_id));
              pages.push(view);
              if (view.pocket_flagged.length < 2) break;
            }
            expect(pages.flatMap((v) => v.pocket_flagged), `${name}, add-backs`).toEqual(full.pocket_flagged);
            expect(full.add_backs.lines, `${name}, add-backs counted`).toBe(full.pocket_flagged.length);
            for (const asOf of AS_OF) {
              const label = `${name}, as of ${asOf}`;
              const totals = JSON.parse(rollingPnlJson(db, face, asOf, "totals"));
              const full = JSON.parse(rollingPnlJson(db, face, asOf, "full"));
              expect(totals, label).toEqual(withoutTransactions(full));
              expect(reported(full), label).toEqual(recomputed(db, face, asOf));
              for (const window of Object.keys(WINDOWS) as WindowName[]) {
                for (const part of PNL_PARTS) {
                  const paged: string[] = [];
                  let total = -1;
                  for (let page = 1; page < 50; page++) {
                    const answer = pnlTransactionsPage(db, face, { asOf, window, part, page, perPage: 3 });
                    total = answer.total;
                    paged.push(...answer.transactions.map((t) => `${t.side}:${t.src_id}:${t.period}`));
                    if (answer.transactions.length < 3) break;
                  }
                  const listed = listedIn(full, window, part);
                  expect(paged.sort(), `${label}, ${window} ${part}`).toEqual(listed);
                  expect(total, `${label}, ${window} ${part} total`).toBe(listed.length);
                }
              }
            }
          }
        });
      }),
      { seed: 20261125, numRuns: 50 },
    );
  });

  it("pages the auditor's add-backs across and within days, on every face", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("pnl-add-back-pages"));
    await runInDurableObject(stub, (instance: TenantLedger) => {
      const db = instance.db;
      const connection = connectBank(db, "sandbox", "", AT);
      // Seven draws over three days (three on one day), two lines that are not add-backs between them.
      const dates = ["2026-11-08", "2026-11-11", "2026-11-11", "2026-11-11", "2026-11-11", "2026-11-20", "2026-11-21", "2026-11-21", "2026-11-21"];
      const added = dates.map((date, i) => ({ transaction_id: `d${i}`, account_id: "checking", amount: 10 + i, date, name: i === 2 || i === 6 ? "RENT" : "ATM" }));
      applyFeedPage(db, connection, { cursorBefore: "", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);
      createCategory(db, { name: "Owner", header: "draw" }, "human:pnl", AT);
      createRule(db, { rule_key: "atm", match_kind: "description_exact", match_value: "ATM", category: "Owner" }, "human:pnl", AT, null);
      createRule(db, { rule_key: "rent", match_kind: "description_exact", match_value: "RENT", category: "Rent" }, "human:pnl", AT, null);
      for (const [name, face] of Object.entries(FACES)) {
        const full = JSON.parse(auditorViewJson(db, face, 1, { form: "full", page: 1, perPage: 0 }));
        for (const perPage of [1, 2, 3, 5]) {
          const listed: number[] = [];
          for (let page = 1; page <= 9; page++) {
            listed.push(...JSON.parse(auditorViewJson(db, face, 1, { form: "paged", page, perPage })).pocket_flagged.map((p: any) => p.src_id));
          }
          expect(listed, `${name}, ${perPage} a page`).toEqual(full.pocket_flagged.map((p: any) => p.src_id));
        }
      }
      expect(JSON.parse(auditorViewJson(db, FACES["no floor"]!, 1, { form: "full", page: 1, perPage: 0 })).add_backs.lines).toBe(7);
    });
  });
});
