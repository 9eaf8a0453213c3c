/**
 * Relation C as kept (`c_rows`, `c_totals`, `c_month_totals`, `c_words`) against its
 * definition (`c_rows_derived`): for any history of feed pages, judgements, rules and runs of
 * the rules, the kept copies equal the derivation, and every summary read from the running figures
 * (the auditor's months among them) equals the same summary counted from the derivation,
 * on every kind of face.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { FeedPage } from "../../providers/bank/types";
import { bookedMonths } from "../reports/auditor";
import { booksSummary, LIST_ORDER, listAccounts, listCategoryTotals, listRows, rowConditions, UNCATEGORISED } from "../books/reads";
import { cRows } from "./schema";
import type { LedgerDb } from "./db";
import { faceFor, type Face } from "../face";
import { applyFeedPage, currentCursor } from "../feed/feed-pages";
import { recordHumanJudgement } from "../books/judgements";
import { relationCDrift } from "../../../test/support/relation-c-drift";
import { createRule } from "../rules/rulebook";
import { runRules } from "../rules/run-rules";
import { connectBank } from "../feed/sync-requests";
import type { TenantLedger } from "../tenant-ledger";

const NOW = new Date("2026-11-22T12:00:00.000Z");
const AT = NOW.toISOString();
const FACES: Record<string, Face> = {
  "no floor": faceFor({ tier: "paid", visibleFrom: null }, NOW),
  "a paid floor": faceFor({ tier: "paid", visibleFrom: "2026-11-19" }, NOW),
  "the free window": faceFor({ tier: "free", visibleFrom: null }, NOW),
};

const ids = fc.constantFrom("t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7");
const feedLine = fc.record({
  transaction_id: ids,
  account_id: fc.constantFrom("checking", "card"),
  amount: fc.constantFrom(12.5, -40, 7, -3.25),
  // Around both floors, and a month on either side of them (the auditor's months).
  date: fc.constantFrom("2026-10-31", "2026-11-17", "2026-11-19", "2026-11-20", "2026-11-21", "2026-12-01"),
  name: fc.constantFrom("COFFEE", "RENT", "STRIPE PAYOUT"),
  pending: fc.boolean(),
  pending_transaction_id: fc.option(ids, { nil: undefined }),
});
const step = fc.oneof(
  fc.record({
    kind: fc.constant("page" as const),
    added: fc.array(feedLine, { maxLength: 4 }),
    modified: fc.array(feedLine, { maxLength: 2 }),
    removed: fc.array(ids, { maxLength: 2 }),
    // Through the object, the rules and the local model decide the page's lines before it closes.
    decided: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("judge" as const), aId: fc.integer({ min: 1, max: 12 }), category: fc.constantFrom("Meals", "Rent", "uncategorized") }),
  fc.record({ kind: fc.constant("rule" as const), key: fc.constantFrom("r1", "r2"), word: fc.constantFrom("COFFEE", "RENT"), category: fc.constantFrom("Meals", "Rent") }),
  // A read on the paid floor's face: the ledger learns the floor there, and keeps its figures from then on.
  fc.record({ kind: fc.constant("read on the floor" as const) }),
  // The rules over every undecided line (lines a page left undecided among them).
  fc.record({ kind: fc.constant("run rules" as const) }),
);
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

async function apply(instance: TenantLedger, connection: number, s: Step, n: number): Promise<void> {
  const db = instance.db;
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
    if (s.decided) await instance.applyFeedPage(connection, page);
    else applyFeedPage(db, connection, page, AT);
  } else if (s.kind === "read on the floor") {
    booksSummary(db, FACES["a paid floor"]!);
  } else if (s.kind === "run rules") {
    await runRules(db, null, AT);
  } else if (s.kind === "judge") {
    recordHumanJudgement(db, s.aId, s.category, "human:drift", AT);
  } else {
    createRule(db, { rule_key: s.key, match_kind: "description_exact", match_value: s.word, category: s.category }, "human:drift", AT, null);
  }
}

/** Calendar-month totals of booked rows, newest first, as the auditor view shows them. */
function countedMonths(booked: { posted_on: string; amount_cents: number }[]) {
  const months = new Map<string, { money_in_cents: number; money_out_cents: number; lines: number }>();
  for (const r of booked) {
    const m = months.get(r.posted_on.slice(0, 7)) ?? { money_in_cents: 0, money_out_cents: 0, lines: 0 };
    if (r.amount_cents > 0) m.money_in_cents += r.amount_cents;
    else m.money_out_cents -= r.amount_cents;
    m.lines += 1;
    months.set(r.posted_on.slice(0, 7), m);
  }
  return [...months.entries()]
    .sort(([a], [b]) => b.localeCompare(a))
    .map(([month, m]) => ({ month, money_in_cents: m.money_in_cents, money_out_cents: m.money_out_cents, net_cents: m.money_in_cents - m.money_out_cents, lines: m.lines }));
}

/** The summary counted row by row from the derivation, as the reads served it before figures were kept. */
function countedSummary(db: LedgerDb, face: Face) {
  const rows = db
    .all<{ account_id: string; posted_on: string; category: string | null; state: string; amount_cents: number }>(
      sql`SELECT account_id, posted_on, category, state, amount_cents FROM c_rows_derived`,
    )
    .filter((r) => face.effectiveFrom === null || r.posted_on >= face.effectiveFrom);
  const booked = rows.filter((r) => r.state === "in books");
  const perCategory = new Map<string, { total_cents: number; lines: number }>();
  for (const r of booked) {
    const c = perCategory.get(r.category ?? UNCATEGORISED) ?? { total_cents: 0, lines: 0 };
    perCategory.set(r.category ?? UNCATEGORISED, { total_cents: c.total_cents + r.amount_cents, lines: c.lines + 1 });
  }
  const count = (state: string) => rows.filter((r) => r.state === state).length;
  return {
    lines: rows.length,
    booked: booked.length,
    archived: count("archived"),
    pending: count("pending"),
    superseded: count("superseded"),
    retracted: count("retracted"),
    total_cents: booked.reduce((t, r) => t + r.amount_cents, 0),
    categories: Object.fromEntries(perCategory),
    queue: rows.filter((r) => r.category === null).length,
    months: countedMonths(booked),
  };
}

describe("relation C as kept", () => {
  it("takes a page's new lines when the page closes, with the decisions made of them in the page", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("relation-c-page-close"));
    await runInDurableObject(stub, (instance: TenantLedger) => {
      const db = instance.db;
      const connection = connectBank(db, "sandbox", "", AT);
      createRule(db, { rule_key: "coffee", match_kind: "description_exact", match_value: "COFFEE", category: "Meals" }, "human:close", AT, null);
      const line = (id: string, name: string) => ({ transaction_id: id, account_id: "checking", amount: 4, date: "2026-11-20", name });
      const page: FeedPage = { cursorBefore: "", nextCursor: "1", hasMore: false, accounts: [], added: [line("a", "COFFEE"), line("b", "RENT"), line("a", "COFFEE")], modified: [], removed: [] };
      const rowsOf = () => db.all<{ side: string; src_id: number; category: string | null }>(sql`SELECT side, src_id, category FROM c_rows ORDER BY side, src_id`);
      let whileOpen: unknown[] = [];
      applyFeedPage(db, connection, page, AT, (tx, newerThan) => {
        expect(newerThan).toBe(0);
        recordHumanJudgement(tx, 1, "Meals", "human:close", AT);
        // Before the close only the twin (side B) is in relation C: side A waits for its page.
        whileOpen = rowsOf();
      });
      expect(whileOpen).toEqual([{ side: "B", src_id: 1, category: "Meals" }]);
      expect(rowsOf()).toEqual([
        { side: "A", src_id: 1, category: "Meals" },
        { side: "A", src_id: 2, category: null },
        { side: "B", src_id: 1, category: "Meals" },
      ]);
      expect(relationCDrift(db)).toEqual({ rows: 0, totals: 0, floorTotals: 0, months: 0, days: 0, words: 0 });
    });
  });

  it("reads a list filtered by category, or by the queue label, from the one category index that holds its rows", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("relation-c-category-indexes"));
    await runInDurableObject(stub, (instance: TenantLedger, state) => {
      const face = FACES["no floor"]!;
      // The page's keys as `listRows` reads them, each filter's plan from SQLite itself.
      const plan = (cat: string) => {
        const query = instance.db.select({ side: cRows.side, srcId: cRows.srcId }).from(cRows).where(rowConditions(face, { cat })).orderBy(...LIST_ORDER).limit(50).toSQL();
        return [...state.storage.sql.exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query.sql}`, ...query.params)].map((r) => r.detail).join("; ");
      };
      expect(plan("Meals")).toMatch(/USING COVERING INDEX c_rows_category \(category=\?\)/);
      expect(plan(UNCATEGORISED)).toMatch(/USING COVERING INDEX c_rows_queue/);
      expect(plan(UNCATEGORISED)).not.toMatch(/TEMP B-TREE/);
    });
  });

  it("finds `q` by the exact rule: ASCII case folded, other letters as they are, wildcards taken literally", async () => {
    const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName("relation-c-exact-words"));
    await runInDurableObject(stub, (instance: TenantLedger) => {
      const db = instance.db;
      const connection = connectBank(db, "sandbox", "", AT);
      const names = ["Café Crème", "CAFÉ CRÈME", "cafe creme", "100% PURE_JUICE", "100 PERCENT PUREXJUICE", "YES! 50% OFF", "STRASSE", "straße", "\u212aELVIN", "kelvin"];
      const added = names.map((name, i) => ({ transaction_id: `w${i}`, account_id: "checking", amount: 3, date: "2026-11-20", name }));
      applyFeedPage(db, connection, { cursorBefore: "", nextCursor: "1", hasMore: false, accounts: [], added, modified: [], removed: [] }, AT);
      const face = FACES["no floor"]!;
      for (const q of ["café", "CAFÉ", "cafe", "É", "é c", "0%", "% p", "_", "e_j", "!", "! 5", "ss", "ß", "kelvin", "elvin", "K"]) {
        const expected = db
          .all<{ side: string; src_id: number }>(sql`SELECT side, src_id FROM c_rows_derived WHERE instr(lower(description), lower(${q})) > 0`)
          .map((r) => `${r.side}${r.src_id}`)
          .sort();
        const found = listRows(db, face, { q }, 1, 50).rows.map((r) => `${r.side}${r.src_id}`).sort();
        expect(found, `q=${q}`).toEqual(expected);
      }
    });
  });

  it("equals its derivation after any history, and so does every summary on every face", async () => {
    let tenant = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const stub = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(`relation-c-${tenant++}`));
        await runInDurableObject(stub, async (instance: TenantLedger) => {
          const db = instance.db;
          const connection = connectBank(db, "sandbox", "", AT);
          for (const [n, s] of steps.entries()) await apply(instance, connection, s, n);
          expect(relationCDrift(db)).toEqual({ rows: 0, totals: 0, floorTotals: 0, months: 0, days: 0, words: 0 });
          for (const [name, face] of Object.entries(FACES)) {
            const counted = countedSummary(db, face);
            const summary = booksSummary(db, face);
            expect({ ...summary, by_category: undefined, vault_rows: undefined, visible_rows: undefined }, name).toEqual({
              ...counted,
              categories: undefined,
              months: undefined,
              queue: undefined,
              by_category: undefined,
              vault_rows: undefined,
              visible_rows: undefined,
            });
            expect(Object.fromEntries(summary.by_category.map((c) => [c.category, { total_cents: c.total_cents, lines: c.lines }])), name).toEqual(
              counted.categories,
            );
            const { [UNCATEGORISED]: _queue, ...labelled } = counted.categories;
            expect(listCategoryTotals(db, face).map((c) => c.category).sort(), name).toEqual(Object.keys(labelled).sort());
            expect(listRows(db, face, { cat: UNCATEGORISED }, 1, 50).total, name).toBe(counted.queue);
            expect(listAccounts(db, face).reduce((t, a) => t + a.lines, 0), name).toBe(counted.lines);
            expect(bookedMonths(db, face), name).toEqual(counted.months);
            // Words found through the trigram index are exactly the words a scan finds.
            for (const q of ["off", "Rent", "ST", "e payout", "zzz", 'PAY"OUT']) {
              const scanned = db.all<{ n: number; cents: number }>(
                sql`SELECT count(*) AS n, coalesce(sum(CASE WHEN state = 'in books' THEN amount_cents ELSE 0 END), 0) AS cents
                  FROM c_rows_derived WHERE instr(lower(description), lower(${q})) > 0 AND (${face.effectiveFrom} IS NULL OR posted_on >= ${face.effectiveFrom})`,
              )[0]!;
              expect(listRows(db, face, { q }, 1, 50), `${name}, q=${q}`).toMatchObject({ total: scanned.n, total_cents: scanned.cents });
              // Past the last page the totals are counted, not carried by a row.
              expect(listRows(db, face, { q }, 99, 50), `${name}, q=${q}, page 99`).toMatchObject({ rows: [], total: scanned.n, total_cents: scanned.cents });
            }
          }
        });
      }),
      { seed: 20261122, numRuns: 60 },
    );
  });
});
