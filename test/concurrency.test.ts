/**
 * Fifty writers at once on one tenant (categorize, label, create_rule, run_rules,
 * adjudicate, sync_now), all through the API. The tenant's object takes them one at a
 * time, so afterwards: op sequence numbers run 1..n with no gap, each line's category is
 * its last acknowledged judgement, every acknowledged rule revision is in the rulebook,
 * a second run decides nothing, and relation C as kept equals its derivation.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { asc } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { relationCDrift } from "./support/relation-c-drift";
import { decisions, ruleRevisions } from "../src/ledger/store/schema";
import type { TenantLedger } from "../src/ledger/tenant-ledger";
import { landSandboxBank } from "./fixtures/books";
import { api, CHECKING, createTenant, deliver, rw, session, txn, type SandboxTenant } from "./fixtures/sandbox";

const WRITERS = 50;
const CATEGORIES = ["Meals", "Rent", "Supplies", "Fuel"];

let t: SandboxTenant;
let lineIds: number[];

beforeAll(async () => {
  t = await createTenant();
  const names = ["COFFEE", "RENT", "ACME SUPPLY", "FUEL STOP", "MYSTERY"];
  await deliver(t.tenant, { accounts: [CHECKING], added: Array.from({ length: 20 }, (_, i) => txn(`c${i}`, { name: `${names[i % names.length]} ${i}` })) });
  await landSandboxBank(t);
  lineIds = (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows.map((r: { src_id: number }) => r.src_id);
  // Waiting at the bank, for the writers' sync_now calls to bring in while the others write.
  await deliver(t.tenant, { added: Array.from({ length: 10 }, (_, i) => txn(`late${i}`, { name: `COFFEE LATE ${i}` })) });
});

type Ack = { kind: string; status: number; body: any; line?: number; category?: string; ruleKey?: string };

/** The i-th writer's request: a mix over few lines and few rule keys, so writers collide. */
async function writer(i: number): Promise<Ack> {
  const line = lineIds[i % 6]!;
  const category = CATEGORIES[i % CATEGORIES.length]!;
  const credential = i % 3 === 0 ? session(t) : rw(t);
  switch (i % 6) {
    case 0:
    case 1: {
      const a = await api(credential, "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: line, category } });
      return { kind: "judgement", status: a.status, body: a.body, line, category };
    }
    case 2: {
      const a = await api(credential, `/api/v1/transactions/A/${line}/label`, { method: "POST", body: { category, reason: `writer ${i}` } });
      return { kind: "judgement", status: a.status, body: a.body, line, category };
    }
    case 3: {
      const ruleKey = `k${i % 4}`;
      const a = await api(credential, "/api/v1/create-rule", {
        method: "POST",
        body: { rule_key: ruleKey, match_kind: "description_regex", match_value: ["COFFEE", "RENT", "FUEL", "ACME"][i % 4], category },
      });
      return { kind: "rule", status: a.status, body: a.body, ruleKey };
    }
    case 4: {
      const a = await api(credential, "/api/v1/run-rules", { method: "POST" });
      return { kind: "run", status: a.status, body: a.body };
    }
    default: {
      if (i % 12 === 5) {
        const a = await api(credential, "/api/v1/sync-now", { method: "POST" });
        return { kind: "sync", status: a.status, body: a.body };
      }
      const exceptions = (await api(credential, "/api/v1/exceptions")).body.exceptions as { a_id: number; description: string }[];
      const target = exceptions[0];
      if (!target) return { kind: "adjudicate", status: 200, body: null };
      const a = await api(credential, "/api/v1/adjudicate", {
        method: "POST",
        body: { a_id: target.a_id, rule_key: `adj-${i}`, match_kind: "description_exact", match_value: target.description, category },
      });
      return { kind: "adjudicate", status: a.status, body: a.body, line: target.a_id, category };
    }
  }
}

describe(`${WRITERS} concurrent writers on one tenant`, () => {
  it("lose nothing, double nothing and leave the categorisation's invariants holding", async () => {
    const acks = await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i)));
    for (const a of acks) {
      // An adjudication can lose its race (another writer decided the line first): a 4xx that says so, never a 5xx.
      expect(a.status, `${a.kind}: ${JSON.stringify(a.body)}`).toBeLessThan(a.kind === "adjudicate" ? 500 : 300);
    }

    // Each line's category is the one its acknowledged judgement with the highest op_seq gave it.
    const judged = acks.filter((a) => (a.kind === "judgement" || a.kind === "adjudicate") && a.status === 200 && a.body !== null);
    expect(acks.filter((a) => a.kind === "sync").map((a) => a.status)).toEqual([202, 202, 202, 202]);
    const last = new Map<number, Ack>();
    for (const a of judged) if ((last.get(a.line!)?.body.op_seq ?? 0) < a.body.op_seq) last.set(a.line!, a);
    for (const [line, a] of last) {
      expect((await api(rw(t), `/api/v1/transactions/A/${line}`)).body.row.category, `A:${line}`).toBe(a.category);
    }

    const rulesAcked = acks.filter((a) => a.kind === "rule" && a.status === 200);
    await runInDurableObject(env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant)), (ledger: TenantLedger) => {
      const db = ledger.db;
      // Op sequence numbers: 1..n, no gap, no repeat, and every acknowledged one among them.
      const seqs = db.select({ seq: decisions.seq }).from(decisions).orderBy(asc(decisions.seq)).all().map((d) => d.seq);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      for (const a of judged) expect(seqs).toContain(a.body.op_seq);
      // Every acknowledged revision is in the rulebook, each key's revisions numbered 1..n.
      const revisions = db.select({ key: ruleRevisions.ruleKey, revision: ruleRevisions.revision }).from(ruleRevisions).all();
      for (const a of rulesAcked) expect(revisions).toContainEqual({ key: a.ruleKey, revision: a.body.rule.revision });
      for (const key of new Set(revisions.map((r) => r.key))) {
        const numbers = revisions.filter((r) => r.key === key).map((r) => r.revision).sort((x, y) => x - y);
        expect(numbers, key).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
      }
      expect(relationCDrift(db)).toEqual({ rows: 0, totals: 0, floorTotals: 0, months: 0, days: 0, words: 0 });
    });
    // A human judgement is never overridden and a second run decides nothing.
    await api(rw(t), "/api/v1/run-rules", { method: "POST" });
    expect((await api(rw(t), "/api/v1/run-rules", { method: "POST" })).body.decided).toBe(0);
    for (const [line, a] of last) {
      expect((await api(rw(t), `/api/v1/transactions/A/${line}`)).body.row.category, `A:${line} after the runs`).toBe(a.category);
    }
  });
});
