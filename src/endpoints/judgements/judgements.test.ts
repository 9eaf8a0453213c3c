import { env, runInDurableObject } from "cloudflare:test";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { labels } from "../../ledger/store/schema";
import { landSandboxBank } from "../../../test/fixtures/books";
import { api, CHECKING, createTenant, deliver, ro, rw, session, txn, type SandboxTenant } from "../../../test/fixtures/sandbox";

async function rowsOf(t: SandboxTenant): Promise<any[]> {
  return (await api(rw(t), "/api/v1/transactions?per_page=100")).body.rows;
}

describe("categorize", () => {
  let t: SandboxTenant;
  let line: any;
  let twin: any;
  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("k1", { name: "Lunch" })] });
    await landSandboxBank(t);
    await deliver(t.tenant, { added: [txn("k1", { name: "Lunch" })] });
    await landSandboxBank(t);
    const rows = await rowsOf(t);
    line = rows.find((r) => r.side === "A");
    twin = rows.find((r) => r.side === "B");
  });

  it("sets a side-A line's category, returning the op and the row", async () => {
    const answer = await api(rw(t), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: line.src_id, category: "Meals" } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ op_seq: expect.any(Number), row: { ...line, category: "Meals" } });
    // The B twin shows its A line's category.
    expect((await rowsOf(t)).find((r) => r.side === "B").category).toBe("Meals");
  });

  it("unsets with either spelling of the queue", async () => {
    for (const queue of ["uncategorized", "Uncategorised"]) {
      await api(rw(t), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: line.src_id, category: "Meals" } });
      const answer = await api(session(t), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: line.src_id, category: queue } });
      expect(answer.body.row.category).toBe("uncategorised");
    }
  });

  it("is refused by the ledger on side B, in its own words", async () => {
    const answer = await api(rw(t), "/api/v1/categorize", { method: "POST", body: { side: "B", src_id: twin.src_id, category: "Meals" } });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: "ledger_refusal", detail: `B:${twin.src_id} is an archived twin (a duplicate arrival of A:${line.src_id}); the ledger takes judgements on side-A lines only` });
  });

  it("answers 404 for a line not held, 400 for a bad body, 403 for a read-only token", async () => {
    expect((await api(rw(t), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: 999, category: "Meals" } })).status).toBe(404);
    const bad = await api(rw(t), "/api/v1/categorize", { method: "POST", body: { side: "C", src_id: "one" } });
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["body.category", "body.side", "body.src_id"]);
    expect((await api(ro(t), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: line.src_id, category: "X" } })).status).toBe(403);
  });

  it("cannot touch another tenant's line", async () => {
    const other = await createTenant();
    const answer = await api(rw(other), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: line.src_id, category: "Stolen" } });
    expect(answer.status).toBe(404);
    expect((await rowsOf(t)).find((r) => r.side === "A").category).not.toBe("Stolen");
  });

  it("follows a pending line to the line that posts it", async () => {
    const p = await createTenant();
    await deliver(p.tenant, { accounts: [CHECKING], added: [txn("pp", { name: "Hotel hold", pending: true })] });
    await landSandboxBank(p);
    const pending = (await rowsOf(p))[0];
    await deliver(p.tenant, { added: [txn("pp-posted", { name: "Hotel", pending_transaction_id: "pp" })] });
    await landSandboxBank(p);
    // Judged after it was superseded: the judgement follows it to its successor.
    await api(rw(p), "/api/v1/categorize", { method: "POST", body: { side: "A", src_id: pending.src_id, category: "Travel" } });
    const posted = (await rowsOf(p)).find((r) => r.description === "Hotel");
    expect(posted).toMatchObject({ state: "in books", category: "Travel" });
  });
});

describe("label_transaction", () => {
  let t: SandboxTenant;
  let line: any;
  beforeAll(async () => {
    t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: [txn("l1", { name: "Blue Bottle" }), txn("l2", { name: "Dup" })] });
    await landSandboxBank(t);
    await deliver(t.tenant, { added: [txn("l2", { name: "Dup" })] });
    await landSandboxBank(t);
    line = (await rowsOf(t)).find((r) => r.description === "Blue Bottle");
    await api(rw(t), "/api/v1/create-rule", { method: "POST", body: { rule_key: "bb", match_kind: "description_exact", match_value: "blue bottle", category: "Office" } });
  });

  it("writes the label and the op as one fact, with the old category from the ledger", async () => {
    const answer = await api(rw(t), `/api/v1/transactions/A/${line.src_id}/label`, {
      method: "POST",
      body: { category: "Meals", reason: "client coffee", side: "A", src_id: line.src_id },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ op_seq: expect.any(Number), row: { category: "Meals" } });
    const stored = await runInDurableObject(env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant)), (instance) =>
      instance.db.select().from(labels).where(eq(labels.aId, line.src_id)).all(),
    );
    expect(stored).toEqual([
      expect.objectContaining({ category: "Meals", oldCategory: "Office", reason: "client coffee", opSeq: answer.body.op_seq, actor: expect.stringMatching(/^token:/) }),
    ]);
  });

  it("refuses a body that disagrees with the path", async () => {
    const answer = await api(rw(t), `/api/v1/transactions/A/${line.src_id}/label`, { method: "POST", body: { category: "Meals", side: "B", src_id: line.src_id + 1 } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((e: any) => e.field)).toEqual(["body.side", "body.src_id"]);
  });

  it("is 409 on side B, 404 for a line not held, 403 for a read-only token", async () => {
    const twin = (await rowsOf(t)).find((r) => r.side === "B");
    expect((await api(rw(t), `/api/v1/transactions/B/${twin.src_id}/label`, { method: "POST", body: { category: "Meals" } })).status).toBe(409);
    expect((await api(rw(t), "/api/v1/transactions/A/999/label", { method: "POST", body: { category: "Meals" } })).status).toBe(404);
    expect((await api(ro(t), `/api/v1/transactions/A/${line.src_id}/label`, { method: "POST", body: { category: "Meals" } })).status).toBe(403);
  });
});
