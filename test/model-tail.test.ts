/**
 * The fourth engine end to end: after a sync the rules decide, then the local model
 * decides what it is sure of, then the tail is asked about the rest; every call is metered
 * and, at or over the cap, the tail waits for the daily batch.
 */
import { settle } from "../src/errors";
import { abortAllDurableObjects, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runTenantDay } from "../src/cron/daily";
import { setCapOverride } from "../src/index-db/meter";
import type { TailLine, TailResult } from "../src/providers/model/chat-completions";
import type { TailClient } from "../src/tail/ask-tail";
import { runSyncRequest } from "../src/watcher/watcher";
import { api, CHECKING, createTenant, deliver, judge, rw, type SandboxTenant, txn } from "./fixtures/sandbox";

const ledgerOf = (t: SandboxTenant) => env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant));

/** Syncs through the watcher with the given tail (never the real queue's, which has none configured). */
async function syncWith(t: SandboxTenant, tail: TailClient | null): Promise<void> {
  const request = settle(await ledgerOf(t).requestSync(t.tenant, `human:${t.tenant}`));
  if (request.state !== "recorded") throw new Error(`expected a new request, got ${request.state}`);
  await runSyncRequest(env, { tenant: t.tenant, requestId: request.requestId }, 1, undefined, tail);
}

/** A tail that answers from a table of description -> category (null = abstain), priced. */
function fakeTail(answers: Record<string, string | null>, millicents: number | null = 120): TailClient & { asked: TailLine[][] } {
  const asked: TailLine[][] = [];
  return {
    asked,
    async classify(categories: string[], lines: TailLine[]): Promise<TailResult> {
      asked.push(lines);
      const map = new Map<number, string | null>();
      for (const line of lines) {
        const answer = answers[line.description] ?? null;
        map.set(line.id, answer !== null && categories.includes(answer) ? answer : null);
      }
      return { answers: map, model: "fake-model-1", promptTokens: 100, completionTokens: 20, millicents };
    },
  };
}

const MERCHANTS = [
  { name: "BLUE BOTTLE COFFEE", category: "Meals", amount: 6.5 },
  { name: "SHELL OIL", category: "Fuel", amount: 48 },
  { name: "ADOBE CREATIVE CLOUD", category: "Software", amount: 59.99 },
  { name: "STRIPE PAYOUT", category: "Sales", amount: -820 },
];

/**
 * A tenant whose person has categorised a history of lines from four merchants, sixteen of
 * each (or `each`): enough for a calibrated model to be sure. (With twelve of each,
 * forty-eight held-out lines all right, the model puts such a merchant's next line at the
 * band's edge.)
 */
async function tenantWithHistory(each = 16): Promise<SandboxTenant> {
  const t = await createTenant();
  const history = MERCHANTS.flatMap((m, i) =>
    Array.from({ length: each }, (_, n) => txn(`h${i}-${n}`, { name: `${m.name} #${100 + n * 7}`, amount: Math.round((m.amount + n) * 100) / 100, date: "2026-10-0" + (1 + (n % 9)) })),
  );
  await deliver(t.tenant, { accounts: [CHECKING], added: history });
  await syncWith(t, null);
  const rows = (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows;
  for (const row of rows) {
    const merchant = MERCHANTS.find((m) => row.description.startsWith(m.name))!;
    await judge(t, row.src_id, merchant.category);
  }
  return t;
}

async function meterNow(t: SandboxTenant) {
  return (await api(rw(t), "/api/v1/meter")).body.months[0];
}

describe("the local model", () => {
  it("decides new lines it is sure of, cites itself and the duh band, and is metered", async () => {
    const t = await tenantWithHistory();
    await deliver(t.tenant, {
      added: [txn("n1", { name: "SQ *BLUE BOTTLE COFFEE #991", amount: 7 }), txn("n2", { name: "SHELL OIL #5742", amount: 51 })],
    });
    await syncWith(t, null);
    const rows = (await api(rw(t), "/api/v1/transactions?from=2026-11-01")).body.rows;
    expect(rows.map((r: any) => r.category).sort()).toEqual(["Fuel", "Meals"]);
    for (const row of rows) {
      const why = (await api(rw(t), `/api/v1/transactions/A/${row.src_id}/why`)).body;
      expect(why.engine).toBe("model");
      expect(why.citations.map((c: any) => c.kind)).toEqual(["model", "duh_band"]);
      expect(why.citations[0].confidence).toBeGreaterThanOrEqual(why.citations[1].floor);
    }
    expect(await meterNow(t)).toMatchObject({ lines_resolved_local: 2, calls: 0 });
  });

  it("reads a sync's new merchant by its own words, not as the known merchant whose words it shares", async () => {
    // Twenty lines of each: read as Blue Bottle's, the roaster's lines would be at about 0.97.
    const t = await tenantWithHistory(20);
    // The rest of the feed: lines nobody labelled, of merchants enough that one page more leaves the fit standing.
    const word = (i: number) => String.fromCharCode(65 + (i % 26), 65 + Math.floor(i / 26), 75 + (i % 7));
    const rest = Array.from({ length: 40 }, (_, i) => txn(`u${i}`, { name: `${word(i)}${word(i + 3)} SUPPLY CO`, amount: 30 + i, date: "2026-10-20" }));
    await deliver(t.tenant, { added: rest });
    await syncWith(t, null);
    await deliver(t.tenant, {
      added: [
        txn("r1", { name: "BLUE BOTTLE ROASTERS WHOLESALE", amount: 8 }),
        txn("r2", { name: "BLUE BOTTLE ROASTERS WHOLESALE", amount: 9 }),
        txn("c1", { name: "SQ *BLUE BOTTLE COFFEE #991", amount: 7 }),
      ],
    });
    await syncWith(t, null);
    const rows = (await api(rw(t), "/api/v1/transactions?from=2026-11-01")).body.rows;
    const engineOf = async (row: any) => (await api(rw(t), `/api/v1/transactions/A/${row.src_id}/why`)).body.engine;
    const roasters = rows.filter((r: any) => r.description.includes("ROASTERS"));
    expect(roasters).toHaveLength(2);
    for (const row of roasters) expect({ category: row.category, engine: await engineOf(row) }).toEqual({ category: "uncategorised", engine: "none" });
    const coffee = rows.find((r: any) => r.description.includes("COFFEE"));
    expect({ category: coffee.category, engine: await engineOf(coffee) }).toEqual({ category: "Meals", engine: "model" });
  });

  it("never overrides a human or a rule", async () => {
    const t = await tenantWithHistory();
    await api(rw(t), "/api/v1/create-rule", {
      method: "POST",
      body: { rule_key: "shell", match_kind: "description_regex", match_value: "shell", category: "Vehicle" },
    });
    await deliver(t.tenant, { added: [txn("n3", { name: "SHELL OIL #8080", amount: 40 })] });
    await syncWith(t, null);
    const line = (await api(rw(t), "/api/v1/transactions?q=8080")).body.rows[0];
    expect(line.category).toBe("Vehicle");
    // Human-judged history is untouched by the model.
    const judged = (await api(rw(t), "/api/v1/transactions?q=SHELL&to=2026-10-31")).body.rows;
    expect(new Set(judged.map((r: any) => r.category))).toEqual(new Set(["Fuel"]));
  });

  it("keeps its state across a restart of the tenant's object", async () => {
    const t = await tenantWithHistory();
    const before = settle(await ledgerOf(t).modelVersion());
    await abortAllDurableObjects();
    const after = settle(await ledgerOf(t).modelVersion());
    expect(after).toEqual(before);
    expect(after.examples).toBe(64);
  });
});

describe("the tail", () => {
  it("is asked about what the rules and the model left, once per line, and every call is metered", async () => {
    const t = await tenantWithHistory();
    await deliver(t.tenant, { added: [txn("x1", { name: "ZOOM.US 888-799", amount: 15 }), txn("x2", { name: "MYSTERY VENDOR", amount: 3 })] });
    const tail = fakeTail({ "ZOOM.US 888-799": "Software", "MYSTERY VENDOR": null });
    await syncWith(t, tail);
    expect(tail.asked.flat().map((l) => l.description).sort()).toEqual(["MYSTERY VENDOR", "ZOOM.US 888-799"]);
    const zoom = (await api(rw(t), "/api/v1/transactions?q=ZOOM")).body.rows[0];
    expect(zoom.category).toBe("Software");
    const why = (await api(rw(t), `/api/v1/transactions/A/${zoom.src_id}/why`)).body;
    expect(why).toMatchObject({ engine: "tail", citations: [{ kind: "tail", model_version: "fake-model-1", category: "Software" }] });
    // The abstention leaves the line an exception, and it is not asked about again.
    expect((await api(rw(t), "/api/v1/exceptions")).body.exceptions.map((e: any) => e.description)).toEqual(["MYSTERY VENDOR"]);
    await syncWith(t, tail);
    expect(tail.asked).toHaveLength(1);
    expect(await meterNow(t)).toMatchObject({ calls: 1, millicents: 120, unpriced_calls: 0, lines_sent_to_api: 2 });
  });

  it("counts an unpriced call, reported and not dropped", async () => {
    const t = await tenantWithHistory();
    await deliver(t.tenant, { added: [txn("u1", { name: "UNKNOWN THING" })] });
    await syncWith(t, fakeTail({}, null));
    expect(await meterNow(t)).toMatchObject({ calls: 1, millicents: 0, unpriced_calls: 1 });
  });

  it("makes no call when not configured: the lines wait in the exceptions queue", async () => {
    const t = await tenantWithHistory();
    await deliver(t.tenant, { added: [txn("w1", { name: "WAITING LINE" })] });
    await syncWith(t, null);
    expect((await api(rw(t), "/api/v1/exceptions")).body.exceptions.map((e: any) => e.description)).toEqual(["WAITING LINE"]);
    // No call and nothing resolved locally: the month has no activity, so no meter row.
    expect((await api(rw(t), "/api/v1/meter")).body.months).toEqual([]);
  });

  it("at or over the cap, waits for the daily batch run", async () => {
    const t = await tenantWithHistory();
    await setCapOverride(env.INDEX_DB, t.tenant, 100, new Date());
    const tail = fakeTail({ "FIRST ONE": "Software", "SECOND ONE": "Software" });
    await deliver(t.tenant, { added: [txn("c1", { name: "FIRST ONE" })] });
    await syncWith(t, tail);
    // 120 millicents reach the 100 cap: the meter switches to batched.
    expect(await meterNow(t)).toMatchObject({ calls: 1, mode: "batched", cap_source: "tenant_override" });
    await deliver(t.tenant, { added: [txn("c2", { name: "SECOND ONE" })] });
    await syncWith(t, tail);
    expect(tail.asked).toHaveLength(1);
    expect((await api(rw(t), "/api/v1/exceptions")).body.exceptions.map((e: any) => e.description)).toEqual(["SECOND ONE"]);

    // A tail that fails leaves the lines for the next day's run, and the day's part ends normally.
    const down: TailClient = { classify: async () => Promise.reject(new Error("the model API is down")) };
    expect(await runTenantDay(env, t.tenant, new Date(), { tail: down })).toEqual({ parity: "no-source", tailCalls: 0 });
    expect((await api(rw(t), "/api/v1/exceptions")).body.exceptions.map((e: any) => e.description)).toEqual(["SECOND ONE"]);

    const day = await runTenantDay(env, t.tenant, new Date(), { tail });
    expect(day).toEqual({ parity: "no-source", tailCalls: 1 });
    expect(tail.asked.at(-1)!.map((l) => l.description)).toEqual(["SECOND ONE"]);
    expect((await api(rw(t), "/api/v1/exceptions")).body.exceptions).toEqual([]);
  });
});
