/**
 * At-least-once delivery: the same message twice, or a watcher that fails half-way and is
 * retried, ends with the same ledger as one clean run.
 */
import { settle } from "../src/errors";
import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../src/worker";
import { SandboxBank } from "../src/providers/bank/sandbox";
import { BankProviderError, type BankProvider } from "../src/providers/bank/types";
import { runSyncRequest } from "../src/watcher/watcher";
import { api, CHECKING, createTenant, deliver, rw, txn, type SandboxTenant } from "./fixtures/sandbox";

/**
 * Records a sync request on the tenant's ledger. Like sync-now, this also queues a real
 * message; the tests deliver the request themselves as well, and whichever delivery runs
 * first, the others must find the request over.
 */
async function recordRequest(t: SandboxTenant): Promise<number> {
  const ledger = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(t.tenant));
  const request = settle(await ledger.requestSync(t.tenant, `human:${t.tenant}`));
  if (request.state === "nothing-connected") throw new Error("a sandbox tenant has a bank");
  return request.requestId;
}

async function runsOf(t: SandboxTenant, requestId: number): Promise<any[]> {
  return (await api(rw(t), "/api/v1/sync-history")).body.runs.filter((r: any) => r.request_id === requestId);
}

async function deliverBatch(messages: { id: string; body: unknown; attempts: number }[]) {
  const batch = createMessageBatch("ledger-jobs", messages.map((m) => ({ ...m, timestamp: new Date() })));
  const ctx = createExecutionContext();
  await worker.queue(batch as MessageBatch<any>, env, ctx);
  return getQueueResult(batch, ctx);
}

const tenLines = Array.from({ length: 10 }, (_, i) => txn(`d${i}`, { amount: i + 1 }));

describe("at-least-once delivery", () => {
  it("runs a request once however often its message arrives", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: tenLines });
    const requestId = await recordRequest(t);
    const message = { kind: "sync", tenant: t.tenant, requestId };

    const both = await deliverBatch([
      { id: "m1", body: message, attempts: 1 },
      { id: "m2", body: message, attempts: 1 },
    ]);
    expect(both.explicitAcks.sort()).toEqual(["m1", "m2"]);
    const again = await deliverBatch([{ id: "m3", body: message, attempts: 2 }]);
    expect(again.explicitAcks).toEqual(["m3"]);

    expect((await api(rw(t), "/api/v1/me")).body).toMatchObject({ lines: 10, vault_rows: 10 });
    const runs = await runsOf(t, requestId);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "ok", added: 10 });
  });

  it("resumes a run that failed half-way and ends as one clean run would", async () => {
    const t = await createTenant();
    await deliver(t.tenant, { accounts: [CHECKING], added: tenLines });
    const requestId = await recordRequest(t);

    // The real sandbox bank, behind a connection that drops on the third page once.
    const bank = new SandboxBank(env.INDEX_DB, t.tenant, 3);
    let calls = 0;
    const flaky: BankProvider = {
      async syncPage(cursor) {
        calls += 1;
        if (calls === 3) throw new BankProviderError("connection reset by the bank", true);
        return bank.syncPage(cursor);
      },
    };
    const message = { kind: "sync", tenant: t.tenant, requestId };
    await expect(runSyncRequest(env, message, 1, flaky)).rejects.toThrow("connection reset");
    // The real queue may also deliver the request; whichever runs first, the second finds it over.
    await runSyncRequest(env, message, 2, flaky);

    const me = (await api(rw(t), "/api/v1/me")).body;
    expect(me).toMatchObject({ lines: 10, booked: 10, archived: 0, vault_rows: 10 });
    const amounts = (await api(rw(t), "/api/v1/transactions")).body.rows.map((r: any) => r.amount_cents).sort((a: number, b: number) => a - b);
    expect(amounts).toEqual(tenLines.map((l) => -l.amount * 100).sort((a, b) => a - b));
    const runs = await runsOf(t, requestId);
    const failed = runs.find((r: any) => r.status === "failed");
    const ok = runs.find((r: any) => r.status === "ok");
    if (failed) {
      expect(failed).toMatchObject({ final: false, error: "connection reset by the bank" });
      expect(failed.added + ok.added).toBe(10);
    }
    expect(ok).toBeDefined();
  });

  it("gives up after the last delivery and frees the tenant for a new request", async () => {
    const t = await createTenant();
    const requestId = await recordRequest(t);
    const broken: BankProvider = {
      async syncPage() {
        throw new BankProviderError("the bank is down", true);
      },
    };
    await runSyncRequest(env, { tenant: t.tenant, requestId: requestId }, 4, broken);
    const runs = await runsOf(t, requestId);
    expect(runs.some((r: any) => r.status === "failed" && r.final)).toBe(true);
    expect((await api(rw(t), "/api/v1/sync-now", { method: "POST" })).body.state).toBe("recorded");
  });
});
