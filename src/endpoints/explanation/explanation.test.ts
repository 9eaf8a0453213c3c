/**
 * explain_transaction through the API, on lines fed through the sandbox bank: the
 * undecided line reports its gap, a human judgement is cited with who and when, a
 * judgement carried over from a pending line names the line it came from, a category
 * under `draw` cites the pocket, and a B row is explained by its A twin.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, BASE, CHECKING, createTenant, deliver, judge, ro, rw, session, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { createApp } from "../../app";
import { createCategory } from "../../ledger/books/categories";
import type { TenantLedger } from "../../ledger/tenant-ledger";

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const ledgerOf = (t: SandboxTenant) => env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant));
const why = (t: SandboxTenant, side: string, id: number, credential: Parameters<typeof api>[0] = rw(t)) => api(credential, `/api/v1/transactions/${side}/${id}/why`);

describe("explain_transaction", () => {
  let t: SandboxTenant;
  let other: SandboxTenant;
  /** A-side ids by description, and the B row. */
  const ids: Record<string, number> = {};
  let twin: any;
  let judgedBefore: string;
  let judgedAfter: string;

  async function idsByDescription() {
    const rows = (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows;
    for (const r of rows) if (r.side === "A") ids[r.description] = r.src_id;
    return rows;
  }

  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, {
      accounts: [CHECKING],
      added: [
        txn("u1", { name: "UNDECIDED SHOP" }),
        txn("j1", { name: "JUDGED BAKERY" }),
        txn("x1", { name: "UNSET LATER" }),
        txn("p1", { name: "PENDING CAFE", amount: 20, pending: true }),
        txn("d1", { name: "ATM WITHDRAWAL", amount: 200 }),
        txn("r1", { name: "RENT NOVEMBER", amount: 1500 }),
      ],
    });
    await landSandboxBank(t);
    await idsByDescription();

    const ledger = ledgerOf(t);
    const actor = `human:${t.tenant}`;
    await runInDurableObject(ledger, (instance: TenantLedger) => {
      createCategory(instance.db, { name: "Owner Draw", header: "draw" }, actor, new Date().toISOString());
    });
    judgedBefore = new Date().toISOString();
    await judge(t, ids["JUDGED BAKERY"]!, "Supplies");
    await judge(t, ids["UNSET LATER"]!, "Meals");
    await judge(t, ids["UNSET LATER"]!, "uncategorised");
    await judge(t, ids["PENDING CAFE"]!, "Meals");
    await judge(t, ids["ATM WITHDRAWAL"]!, "owner draw");
    await judge(t, ids["RENT NOVEMBER"]!, "Rent");
    judgedAfter = new Date().toISOString();

    // The pending line posts, and the rent arrives a second time (its archived twin).
    await deliver(t.tenant, {
      added: [txn("c1", { name: "CAFE", amount: 21, pending_transaction_id: "p1" }), txn("r1", { name: "RENT NOVEMBER", amount: 1500 })],
    });
    await landSandboxBank(t);
    const rows = await idsByDescription();
    twin = rows.find((r: any) => r.side === "B");

    other = await createTenant();
    await deliver(other.tenant, { accounts: [CHECKING], added: [txn("z", { name: "OTHER TENANT SECRET" })] });
    await landSandboxBank(other);
  });

  it("an undecided line: engine none, no citations, no sentence, and the gap as the defect", async () => {
    const id = ids["UNDECIDED SHOP"]!;
    const answer = await why(t, "A", id);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      side: "A",
      src_id: id,
      category: "uncategorised",
      engine: "none",
      sentence: "",
      citations: [],
      defect: `No rule, judgement or model has decided A:${id}; it waits in the exceptions queue.`,
    });
  });

  it("a human judgement: engine human, citing the actor and when", async () => {
    const id = ids["JUDGED BAKERY"]!;
    const answer = await why(t, "A", id);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ side: "A", src_id: id, category: "Supplies", engine: "human", defect: "" });
    expect(answer.body.citations).toHaveLength(1);
    const [cited] = answer.body.citations;
    expect(cited).toEqual({ kind: "human", actor: `human:${t.tenant}`, person: null, at: expect.stringMatching(ISO_UTC), op: "categorize", category: "Supplies", carried_from: null });
    expect(cited.at >= judgedBefore && cited.at <= judgedAfter).toBe(true);
    expect(answer.body.sentence).toBe(`A:${id} is Supplies by human:${t.tenant} via categorize on ${cited.at}.`);
  });

  it("a human unset is explained: engine human, the line back in the queue", async () => {
    const id = ids["UNSET LATER"]!;
    const answer = await why(t, "A", id);
    expect(answer.body).toMatchObject({ category: "uncategorised", engine: "human", defect: "" });
    expect(answer.body.citations).toEqual([expect.objectContaining({ kind: "human", actor: `human:${t.tenant}`, category: null, carried_from: null })]);
    expect(answer.body.sentence).toMatch(new RegExp(`^A:${id} was returned to the queue by human:${t.tenant}`));
  });

  it("a judgement carried over when the pending line posted cites the line it came from", async () => {
    const posted = ids["CAFE"]!;
    const pending = ids["PENDING CAFE"]!;
    const answer = await why(t, "A", posted);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ category: "Meals", engine: "human", defect: "" });
    const [cited] = answer.body.citations;
    expect(cited).toMatchObject({ kind: "human", actor: `human:${t.tenant}`, category: "Meals", carried_from: { side: "A", src_id: pending } });
    // The time is when the judgement was made on the pending line, not when it was carried.
    const original = (await why(t, "A", pending)).body;
    expect(original).toMatchObject({ engine: "human", citations: [expect.objectContaining({ carried_from: null })] });
    expect(cited.at).toBe(original.citations[0].at);
    expect(answer.body.sentence).toMatch(new RegExp(`^A:${posted} is Meals by human:${t.tenant}.* on ${cited.at}, carried from A:${pending}\\.$`));
  });

  it("a category under draw cites the pocket beside the decider", async () => {
    const id = ids["ATM WITHDRAWAL"]!;
    const answer = await why(t, "A", id);
    expect(answer.body).toMatchObject({ category: "owner draw", engine: "human", defect: "" });
    expect(answer.body.citations).toEqual([
      expect.objectContaining({ kind: "human", category: "owner draw" }),
      { kind: "pocket", category: "owner draw", header: "draw" },
    ]);
    expect(answer.body.sentence).toContain("is under the draw header, so the line is on the owner add-back list.");
    // Another category cites no pocket.
    expect((await why(t, "A", ids["JUDGED BAKERY"]!)).body.citations.map((c: any) => c.kind)).toEqual(["human"]);
  });

  it("a B row is explained by its A twin's decision and named as its archived twin", async () => {
    const a = ids["RENT NOVEMBER"]!;
    expect(twin).toMatchObject({ side: "B", state: "archived", exclude_reason: `duplicate of A:${a}` });
    const answer = await why(t, "B", twin.src_id);
    expect(answer.status).toBe(200);
    const ofA = (await why(t, "A", a)).body;
    expect(answer.body).toMatchObject({ side: "B", src_id: twin.src_id, category: "Rent", engine: "human", defect: "" });
    expect(answer.body.citations).toEqual(ofA.citations);
    expect(answer.body.sentence).toBe(ofA.sentence.replace(`A:${a} is`, `B:${twin.src_id}, the archived twin of A:${a}, is`));
  });

  it("answers 404 not_found for a line the tenant does not hold, or another tenant's line", async () => {
    for (const [side, id] of [["A", 999], ["B", 999]] as const) {
      const answer = await why(t, side, id);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ code: "not_found" });
    }
    const theirs = (await api(rw(other), "/api/v1/transactions")).body.rows[0];
    const empty = await createTenant();
    const notHeld = await why(empty, "A", theirs.src_id);
    expect(notHeld).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(JSON.stringify(notHeld.body)).not.toContain("SECRET");
    // The same id in this tenant is this tenant's own line.
    expect((await why(other, "A", theirs.src_id)).body.engine).toBe("none");
  });

  it("answers 404 for a line before the face's visibility floor", async () => {
    const floored = await createTenant({ visible_from: "2026-11-01" });
    await deliver(floored.tenant, { accounts: [CHECKING], added: [txn("old", { date: "2026-10-01" }), txn("new", { date: "2026-11-02" })] });
    await landSandboxBank(floored);
    const [served] = (await api(rw(floored), "/api/v1/transactions")).body.rows;
    expect((await why(floored, "A", served.src_id)).status).toBe(200);
    const hidden = served.src_id === 1 ? 2 : 1;
    expect((await why(floored, "A", hidden)).body).toMatchObject({ status: 404, code: "not_found" });
  });

  it("reads the same with a read-only token and a session", async () => {
    const id = ids["CAFE"]!;
    const asToken = await why(t, "A", id);
    expect((await why(t, "A", id, ro(t))).body).toEqual(asToken.body);
    expect((await why(t, "A", id, session(t))).body).toEqual(asToken.body);
  });

  it("refuses a malformed path with every failing field", async () => {
    const bad = await api(rw(t), "/api/v1/transactions/C/abc/why");
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["path.side", "path.src_id"]);
  });

  it("answers 404 explanation_read_disabled, naming the switch, when the deployment turns the read off", async () => {
    const url = `${BASE}/api/v1/transactions/A/${ids["JUDGED BAKERY"]}/why`;
    const init = { headers: { authorization: `Bearer ${t.tokens.read_write}` } };
    const off = await createApp().request(url, init, { ...env, EXPLANATION_READ: "off" });
    expect(off.status).toBe(404);
    expect(off.headers.get("content-type")).toBe("application/problem+json");
    const body = (await off.json()) as any;
    expect(body).toMatchObject({ status: 404, code: "explanation_read_disabled", type: "urn:ledger:problem:explanation_read_disabled" });
    expect(body.detail).toContain("EXPLANATION_READ");
    // Credentials are still checked first.
    expect((await createApp().request(url, {}, { ...env, EXPLANATION_READ: "off" })).status).toBe(401);
    expect((await createApp().request(url, init, { ...env, EXPLANATION_READ: "on" })).status).toBe(200);
  });
});

describe("explain_transaction for rule decisions", () => {
  it("cites the rule and the revision that decided each line, until a human decides", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("r1", { name: "FUEL STOP 12" })] });
    await landSandboxBank(t);
    const rule = { rule_key: "fuel", match_kind: "description_regex", match_value: "^fuel", category: "Vehicle" };
    expect((await api(rw(t), "/api/v1/create-rule", { method: "POST", body: rule })).body.decided).toBe(1);
    const first = (await api(rw(t), "/api/v1/transactions?q=STOP%2012")).body.rows[0];
    const firstWhy = await why(t, "A", first.src_id);
    expect(firstWhy.body).toMatchObject({
      engine: "rule",
      citations: [{ kind: "rule", rule_key: "fuel", revision: 1, category: "Vehicle" }],
      defect: "",
      sentence: `A:${first.src_id} is Vehicle by rule fuel (revision 1).`,
    });

    // A second revision decides the lines that arrive after it; the first line keeps citing revision 1.
    await api(rw(t), "/api/v1/create-rule", { method: "POST", body: { ...rule, category: "Fuel" } });
    await deliver(t.tenant, { added: [txn("r2", { name: "FUEL STOP 99" }), txn("r1", { name: "FUEL STOP 12" })] });
    await landSandboxBank(t);
    const second = (await api(rw(t), "/api/v1/transactions?q=STOP%2099")).body.rows[0];
    expect((await why(t, "A", second.src_id)).body.citations).toEqual([{ kind: "rule", rule_key: "fuel", revision: 2, category: "Fuel" }]);
    expect((await why(t, "A", first.src_id)).body.citations[0].revision).toBe(1);

    // The B twin of a rule-decided line cites the same rule.
    const twin = (await api(rw(t), "/api/v1/transactions?q=STOP%2012")).body.rows.find((r: any) => r.side === "B");
    expect((await why(t, "B", twin.src_id)).body).toMatchObject({ engine: "rule", citations: [{ kind: "rule", rule_key: "fuel", revision: 1 }] });

    // A human judgement takes over.
    await api(rw(t), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: first.src_id, category: "Travel" } });
    expect((await why(t, "A", first.src_id)).body).toMatchObject({ engine: "human", citations: [{ kind: "human", category: "Travel", op: "categorize" }] });
  });
});
