/**
 * The shared merchant prior end to end: a tenant opts in, the daily run sends its
 * contribution to the index and hands it the pool, and its local model keeps a merchant
 * other businesses split below the band, and suggests (never decides) for a new tenant's
 * line the category many businesses file its merchant under, where it keeps a category of
 * that name; opting out takes its contribution back.
 */
import { settle } from "../src/errors";
import { abortAllDurableObjects, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { poolSharedPrior, shareMerchantPrior } from "../src/cron/shared-prior";
import { startDailyRun } from "../src/cron/daily";
import { contributedWords, poolEntries, replaceContribution, type ContributedWord } from "../src/index-db/shared-prior";
import { SHARED_PRIOR_TENANTS } from "../src/ledger/model/shared-prior";
import { runSyncRequest } from "../src/watcher/watcher";
import { api, CHECKING, createTenant, deliver, judge, ro, rw, type SandboxTenant, txn, uniqueSlug } from "./fixtures/sandbox";
import { page } from "./fixtures/workspace";

/** What another tenant contributes: its words, and the shared names of its categories. */
const contributing = (words: ContributedWord[], categories: string[] = []) => ({ words, categories });
/** A merchant word no other test names: a unique slug in letters (its digits spelt as letters, so its counter keeps it apart). */
const uniqueWord = (prefix: string) => uniqueSlug(prefix).replace(/-/g, "").replace(/[0-9]/g, (digit) => "abcdefghij"[Number(digit)]!);
const word = (word: string, agreement: number, category: string | null = null): ContributedWord => ({ word, agreement, category });

/** The pool's entry for a word, as the daily run last pooled it. */
const poolOf = async (w: string) => (await poolEntries(env.INDEX_DB, [w]))[0];

const ledgerOf = (t: SandboxTenant) => env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant));

async function sync(t: SandboxTenant): Promise<void> {
  const request = settle(await ledgerOf(t).requestSync(t.tenant, `human:${t.tenant}`));
  if (request.state !== "recorded") throw new Error(`expected a new request, got ${request.state}`);
  await runSyncRequest(env, { tenant: t.tenant, requestId: request.requestId }, 1, undefined, null);
}

const MERCHANTS = [
  { name: "BLUE BOTTLE COFFEE", category: "Meals", amount: 6.5 },
  { name: "SHELL OIL", category: "Fuel", amount: 48 },
  { name: "ADOBE CREATIVE CLOUD", category: "Software", amount: 59.99 },
  { name: "STRIPE PAYOUT", category: "Sales", amount: -820 },
];

/** A tenant whose person categorised sixteen lines of each of four merchants: its model decides their next lines. */
async function tenantWithHistory(): Promise<SandboxTenant> {
  const t = await createTenant();
  const history = MERCHANTS.flatMap((m, i) =>
    Array.from({ length: 16 }, (_, n) => txn(`h${i}-${n}`, { name: `${m.name} #${100 + n * 7}`, amount: Math.round((m.amount + n) * 100) / 100, date: "2026-10-0" + (1 + (n % 9)) })),
  );
  await deliver(t.tenant, { accounts: [CHECKING], added: history });
  await sync(t);
  for (const row of (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows) {
    await judge(t, row.src_id, MERCHANTS.find((m) => row.description.startsWith(m.name))!.category);
  }
  return t;
}

/** Other businesses that opted in and split `word` half and half; they agree on sixty other merchants, so the pool is larger than one statement's bound values. */
async function othersSplit(word: string, tenants = SHARED_PRIOR_TENANTS): Promise<void> {
  const agreed = Array.from({ length: 60 }, (_, i) => ({ word: `agreed${String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26))}`, agreement: 1, category: null }));
  for (let i = 0; i < tenants; i++) await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([{ word, agreement: 0.5, category: null }, ...agreed]));
}

/** Delivers one new line and syncs it; answers what decided it and its category. */
async function newLine(t: SandboxTenant, id: string, name: string, amount: number): Promise<{ category: string; engine: string }> {
  await deliver(t.tenant, { added: [txn(id, { name, amount, date: "2026-11-02" })] });
  await sync(t);
  const row = (await api(rw(t), `/api/v1/transactions?q=${encodeURIComponent(name.split(" #")[1]!)}&from=2026-11-01`)).body.rows[0];
  const why = (await api(rw(t), `/api/v1/transactions/A/${row.src_id}/why`)).body;
  return { category: row.category, engine: why.engine };
}

describe("the shared merchant prior", () => {
  it("is a tenant's choice, off until it opts in, and making the choice that stands appends nothing", async () => {
    const t = await createTenant();
    expect((await api(ro(t), "/api/v1/shared-merchant-prior")).body).toEqual({ opted_in: false, chosen_at: null, chosen_by: null, contributed_words: 0 });
    const chosen = await api(rw(t), "/api/v1/shared-merchant-prior", { method: "POST", body: { opted_in: true } });
    expect(chosen.status).toBe(200);
    expect(chosen.body).toMatchObject({ opted_in: true, chosen_by: expect.stringMatching(/^token:/), contributed_words: 0 });
    const again = await api(rw(t), "/api/v1/shared-merchant-prior", { method: "POST", body: { opted_in: true } });
    expect(again.body.chosen_at).toBe(chosen.body.chosen_at);
    expect((await api(ro(t), "/api/v1/shared-merchant-prior")).body.opted_in).toBe(true);
  });

  it("refuses a read-only token's choice and a body that is not a boolean choice, recording nothing", async () => {
    const t = await createTenant();
    const readOnly = await api(ro(t), "/api/v1/shared-merchant-prior", { method: "POST", body: { opted_in: true } });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.code).toBe("read_only_token");
    const notBoolean = await api(rw(t), "/api/v1/shared-merchant-prior", { method: "POST", body: { opted_in: "yes" } });
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.body.errors.map((e: any) => e.field)).toEqual(["body.opted_in"]);
    expect((await api(rw(t), "/api/v1/shared-merchant-prior")).body.opted_in).toBe(false);
  });

  it("removes in the daily run a contribution left in the index by a tenant that is not opted in", async () => {
    const t = await createTenant();
    // What an opt-out landing between a daily run's read of the contribution and its write leaves.
    await replaceContribution(env.INDEX_DB, t.tenant, contributing([word("shell", 1)]));
    expect(await shareMerchantPrior(env, t.tenant)).toBeNull();
    expect(await contributedWords(env.INDEX_DB, t.tenant)).toBe(0);
  });

  it("pools a word only where five tenants or more contributed it, and its category only where five file it under one name", async () => {
    const w = uniqueWord("w");
    const pooled = async () => {
      await poolSharedPrior(env, new Date());
      return poolOf(w);
    };
    for (let i = 0; i < SHARED_PRIOR_TENANTS - 1; i++) await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(w, 1, "software")], ["software"]));
    expect(await pooled()).toBeUndefined();
    await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(w, 0.6)], ["software", "meals"]));
    expect(await pooled()).toEqual({ word: w, tenants: SHARED_PRIOR_TENANTS, agreement: expect.closeTo(0.92, 6), category: null, categoryTenants: 0, namingTenants: 0 });
    // A fifth files it under software; of the six, the five and the one that splits it keep a category of that name.
    await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(w, 1, "software")], ["software"]));
    expect(await pooled()).toEqual({
      word: w,
      tenants: SHARED_PRIOR_TENANTS + 1,
      agreement: expect.closeTo(0.9333, 3),
      category: "software",
      categoryTenants: SHARED_PRIOR_TENANTS,
      namingTenants: SHARED_PRIOR_TENANTS + 1,
    });
  });

  it("is read for the words a tenant's lines name, however many: the pool's entries of those words only", async () => {
    const [first, last] = [uniqueWord("a"), uniqueWord("z")];
    for (let i = 0; i < SHARED_PRIOR_TENANTS; i++) await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(first!, 1), word(last!, 1)]));
    await poolSharedPrior(env, new Date());
    // More words than one read takes, the two pooled ones among them at either end.
    const letter = (n: number) => String.fromCharCode(97 + (Math.floor(n) % 26));
    const named = [first!, ...Array.from({ length: 2_500 }, (_, i) => `qq${letter(i)}${letter(i / 26)}${letter(i / 676)}`), last!];
    expect(new Set(named).size).toBe(2_502);
    expect((await poolEntries(env.INDEX_DB, named)).map((p) => p.word)).toEqual([first, last].sort());
    expect(await poolEntries(env.INDEX_DB, [])).toEqual([]);
  });

  it("is pooled once, at the daily run's start: a contribution made after it waits for the next day's pool", async () => {
    const w = uniqueWord("w");
    for (let i = 0; i < SHARED_PRIOR_TENANTS; i++) await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(w, 1, "software")], ["software"]));
    const started = await startDailyRun(env, new Date());
    expect(started.pooledWords).toBeGreaterThan(0);
    expect((await poolOf(w))).toMatchObject({ tenants: SHARED_PRIOR_TENANTS, category: "software" });
    await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(w, 1, "software")], ["software"]));
    expect((await poolOf(w))?.tenants).toBe(SHARED_PRIOR_TENANTS);
    await startDailyRun(env, new Date());
    expect((await poolOf(w))?.tenants).toBe(SHARED_PRIOR_TENANTS + 1);
  });

  it("leaves yesterday's pool for the day where pooling fails, and pools again the next day", async () => {
    const w = uniqueWord("w");
    for (let i = 0; i < SHARED_PRIOR_TENANTS; i++) await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(w, 1, "software")], ["software"]));
    await startDailyRun(env, new Date());
    await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(w, 1, "software")], ["software"]));
    // A table the pooling reads is away: D1 refuses the statement, and the batch's DELETE is undone with it.
    await env.INDEX_DB.exec("ALTER TABLE shared_prior_categories RENAME TO shared_prior_categories_away");
    try {
      expect((await startDailyRun(env, new Date())).pooledWords).toBeNull();
    } finally {
      await env.INDEX_DB.exec("ALTER TABLE shared_prior_categories_away RENAME TO shared_prior_categories");
    }
    expect((await poolOf(w))).toMatchObject({ tenants: SHARED_PRIOR_TENANTS, category: "software" });
    expect((await startDailyRun(env, new Date())).pooledWords).toBeGreaterThan(0);
    expect((await poolOf(w))?.tenants).toBe(SHARED_PRIOR_TENANTS + 1);
  });

  it("suggests for a new tenant's line the category the others file its merchant under, where it keeps that name, from the day after the line arrives", async () => {
    const w = uniqueWord("w");
    // Thirty businesses file the merchant under "Software" (as they write it), and keep that name.
    for (let i = 0; i < 30; i++) await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(w, 1, "software")], ["software", "meals"]));
    const t = await createTenant();
    await api(rw(t), "/api/v1/new-category", { method: "POST", body: { name: "SOFTWARE", header: "expense" } });
    await api(rw(t), "/api/v1/shared-merchant-prior", { method: "POST", body: { opted_in: true } });
    const other = uniqueWord("v").toUpperCase();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("g0", { name: `${other} STATION #1200`, amount: 40, date: "2026-11-01" })] });
    await sync(t);
    await poolSharedPrior(env, new Date());
    // The pool is handed only for the words the tenant's lines name: none of the merchant's yet.
    expect(await shareMerchantPrior(env, t.tenant)).toEqual({ contributed: 0, pooled: 0 });
    await deliver(t.tenant, { added: [txn("g1", { name: `${w.toUpperCase()} INC #4411`, amount: 21, date: "2026-11-02" })] });
    await sync(t);
    const row = (await api(rw(t), `/api/v1/transactions?q=4411&from=2026-11-01`)).body.rows[0];
    expect(row.category).toBe("uncategorised");
    expect((await page(t, "/app/review")).html).not.toContain("<strong>SOFTWARE</strong>");
    // The next day's run hands it the merchant's word, which its line now names.
    expect(await shareMerchantPrior(env, t.tenant)).toEqual({ contributed: 0, pooled: 1 });
    expect((await page(t, "/app/review")).html).toMatch(/<strong>SOFTWARE<\/strong>, 9\d% sure, as other businesses file this merchant/);

    // Opted out: nothing is suggested.
    await api(rw(t), "/api/v1/shared-merchant-prior", { method: "POST", body: { opted_in: false } });
    expect((await page(t, "/app/review")).html).not.toContain("<strong>SOFTWARE</strong>");
  });

  it("never decides a line by the others' category, even where they agree and the tenant's model decides its own merchants", async () => {
    const w = uniqueWord("w");
    for (let i = 0; i < 30; i++) await replaceContribution(env.INDEX_DB, uniqueSlug("other"), contributing([word(w, 1, "meals")], ["meals"]));
    // Its categories are those of its labels: it keeps no taxonomy.
    const t = await tenantWithHistory();
    await api(rw(t), "/api/v1/shared-merchant-prior", { method: "POST", body: { opted_in: true } });
    expect(await newLine(t, "d0", `${w.toUpperCase()} DELI #5510`, 12)).toEqual({ category: "uncategorised", engine: "none" });
    await poolSharedPrior(env, new Date());
    await shareMerchantPrior(env, t.tenant);
    // The pool names the merchant now: still the others' category decides nothing.
    expect(await newLine(t, "d1", `${w.toUpperCase()} DELI #5511`, 14)).toEqual({ category: "uncategorised", engine: "none" });
    expect((await page(t, "/app/review")).html).toMatch(/<strong>Meals<\/strong>, 9\d% sure, as other businesses file this merchant/);
    // The tenant's own merchants are decided by its model as before.
    expect(await newLine(t, "b2", "BLUE BOTTLE COFFEE #993", 7)).toEqual({ category: "Meals", engine: "model" });
  });

  it("keeps a merchant other businesses split below the band for a tenant that opted in, until it opts out", async () => {
    const t = await tenantWithHistory();
    await othersSplit("shell");
    // Not opted in: the daily run sends nothing and hands nothing; the model decides the station's next line.
    expect(await shareMerchantPrior(env, t.tenant)).toBeNull();
    expect(await newLine(t, "s1", "SHELL OIL #5742", 51)).toEqual({ category: "Fuel", engine: "model" });

    // Opted in, before the daily run has handed it the pool: as before.
    await api(rw(t), "/api/v1/shared-merchant-prior", { method: "POST", body: { opted_in: true } });
    expect(await newLine(t, "s2", "SHELL OIL #5749", 52)).toEqual({ category: "Fuel", engine: "model" });
    await poolSharedPrior(env, new Date());
    const day = (await shareMerchantPrior(env, t.tenant))!;
    expect(day.contributed).toBeGreaterThan(0);
    expect((await api(rw(t), "/api/v1/shared-merchant-prior")).body.contributed_words).toBe(day.contributed);
    // Its sixteen agreeing labels, against others' half and half: the line waits for a person (or the tail).
    expect(await newLine(t, "s3", "SHELL OIL #5756", 53)).toEqual({ category: "uncategorised", engine: "none" });
    // A merchant the pool says nothing of is decided as before.
    expect(await newLine(t, "b1", "BLUE BOTTLE COFFEE #991", 7)).toEqual({ category: "Meals", engine: "model" });
    // The pool handed over is kept in the ledger: the object starting again reads it.
    await abortAllDurableObjects();
    expect(await newLine(t, "s5", "SHELL OIL #5770", 55)).toEqual({ category: "uncategorised", engine: "none" });

    const out = await api(rw(t), "/api/v1/shared-merchant-prior", { method: "POST", body: { opted_in: false } });
    expect(out.body).toMatchObject({ opted_in: false, contributed_words: 0 });
    expect(await newLine(t, "s4", "SHELL OIL #5763", 54)).toEqual({ category: "Fuel", engine: "model" });
    expect(await shareMerchantPrior(env, t.tenant)).toBeNull();
  });
});
