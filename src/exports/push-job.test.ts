/**
 * Resync ops: export_books with a spreadsheet destination, and the push job that writes the
 * books through the real spreadsheet adapter to a fake spreadsheet API.
 */
import { settle } from "../errors";
import { env, SELF } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { ledgerOf } from "../env";
import { liveDestinations } from "../index-db/destinations";
import { faceFor } from "../ledger/face";
import { spreadsheetReads } from "../../test/fixtures/export-files";
import { FakeSheets, SHEETS_TOKEN } from "../../test/fixtures/fake-sheets";
import { api, BASE, CHECKING, createTenant, deliver, eventually, judge, ro, rw, syncNow, txn, type SandboxTenant } from "../../test/fixtures/sandbox";
import { requestExport } from "./export-books";
import { runPush } from "./push-job";

const HEADER = ["date", "description", "amount", "category", "header", "account", "side", "id", "state"];

async function bookedTenant(): Promise<SandboxTenant> {
  const t = await createTenant();
  await deliver(t.tenant, {
    accounts: [CHECKING],
    added: [
      txn("a", { name: "CLIENT PAYMENT", amount: -1500, date: "2026-11-02" }),
      txn("b", { name: "OFFICE DEPOT", amount: 42.5, date: "2026-11-03" }),
      txn("c", { name: "HELD", amount: 9, date: "2026-11-04", pending: true }),
    ],
  });
  await syncNow(t);
  const rows = (await api(rw(t), "/api/v1/transactions")).body.rows;
  await judge(t, rows.find((r: any) => r.description === "OFFICE DEPOT").src_id, "Supplies");
  return t;
}

/** Connects a destination the way a person does: the /settings form, with a session. */
async function connect(t: SandboxTenant, spreadsheetId: string, accessToken = SHEETS_TOKEN): Promise<number> {
  const form = new URLSearchParams({ spreadsheet_id: spreadsheetId, sheet: "Books", access_token: accessToken });
  const answer = await SELF.fetch(`${BASE}/settings/destinations`, {
    method: "POST",
    headers: { cookie: `svc_session=${t.session}`, "content-type": "application/x-www-form-urlencoded", origin: BASE },
    body: form,
  });
  expect(answer.status, await answer.text()).toBe(201);
  return (await liveDestinations(env.INDEX_DB, t.tenant))[0]!.id;
}

/** A resync op opened on the tenant's ledger directly, so no queue message races the test's own push. */
async function openOp(t: SandboxTenant, destinationId: number): Promise<number> {
  const op = settle(await ledgerOf(env, t.tenant).openExport(faceFor({ tier: "paid", visibleFrom: null }), {
    destinationId,
    destinations: "known",
    actor: `human:${t.tenant}`,
    at: new Date().toISOString(),
  }));
  return op.id;
}

const push = (t: SandboxTenant, exportId: number, delivery: number, sheets: FakeSheets) =>
  runPush(env, { kind: "push", tenant: t.tenant, exportId }, delivery, sheets.fetch);

describe("the push job", () => {
  let sheets: FakeSheets;
  beforeEach(() => {
    sheets = new FakeSheets();
  });

  it("rewrites the sheet with the books as of the op, and records the push", async () => {
    const t = await bookedTenant();
    sheets.addSpreadsheet("sheet-1", { Books: [["stale row from last month"]] });
    const destination = await connect(t, "sheet-1");
    const opId = await openOp(t, destination);
    // After the op: a new line and a new judgement are not pushed.
    await deliver(t.tenant, { added: [txn("d", { name: "AFTER THE OP", amount: 1, date: "2026-11-05" })] });
    await syncNow(t);

    await push(t, opId, 1, sheets);
    const rows = sheets.sheet("sheet-1");
    expect(rows).toEqual([
      HEADER,
      ["2026-11-02", "CLIENT PAYMENT", 1500, "", "", "acc_checking", "A", expect.any(Number), "in books"],
      ["2026-11-03", "OFFICE DEPOT", -42.5, "Supplies", "", "acc_checking", "A", expect.any(Number), "in books"],
    ]);
    expect(sheets.requests.map((r) => r.verb)).toEqual(["clear", "append", "append"]);
    expect(sheets.requests[0]!.range).toBe("'Books'!A:Z");

    const op = (await api(ro(t), `/api/v1/exports/${opId}`)).body;
    expect(op).toMatchObject({ kind: "resync", op_id: opId, destination_id: destination, status: "pushed", pushes: [{ attempt: 1, status: "pushed", rows: 2, final: true, error: null }] });

    // A second delivery of the same message pushes nothing.
    await push(t, opId, 2, sheets);
    expect(sheets.requests).toHaveLength(3);
  });

  it("pushes text a spreadsheet would run as text, control characters shown, amounts and ids as numbers", async () => {
    const t = await createTenant();
    await deliver(t.tenant, {
      accounts: [{ ...CHECKING, account_id: "@acc" }],
      added: [
        txn("link", { name: '=HYPERLINK("http://x","y")', amount: 12.5, date: "2026-11-02", account_id: "@acc" }),
        txn("ctl", { name: "NUL\u0000 then\r\nCSI\u009b", amount: -3, date: "2026-11-03", account_id: "@acc" }),
      ],
    });
    await syncNow(t);
    const rows = (await api(rw(t), "/api/v1/transactions")).body.rows;
    expect((await api(rw(t), "/api/v1/new-category", { method: "POST", body: { name: "-Fees", header: "expense" } })).status).toBe(200);
    await judge(t, rows.find((r: any) => r.description.startsWith("=HYPERLINK")).src_id, "-Fees");
    sheets.addSpreadsheet("sheet-5");
    const opId = await openOp(t, await connect(t, "sheet-5"));

    await push(t, opId, 1, sheets);
    // The values are written RAW (the fake refuses anything else), so the sheet stores these
    // strings; the prefix keeps them text in a CSV downloaded from the sheet.
    const [header, ...pushed] = sheets.sheet("sheet-5");
    expect(header).toEqual(HEADER);
    expect(JSON.stringify(pushed)).toBe(
      JSON.stringify([
        ["2026-11-02", `'=HYPERLINK("http://x","y")`, -12.5, "'-Fees", "expense", "'@acc", "A", pushed[0]![7], "in books"],
        ["2026-11-03", "NUL\ufffd then CSI\ufffd", 3, "", "", "'@acc", "A", pushed[1]![7], "in books"],
      ]),
    );
    for (const row of pushed) for (const cell of row) expect(typeof cell === "number" || spreadsheetReads(cell) === "text", String(cell)).toBe(true);
  });

  it("retries a failure the API may recover from, and the retry leaves one copy of the books", async () => {
    const t = await bookedTenant();
    sheets.addSpreadsheet("sheet-2");
    const opId = await openOp(t, await connect(t, "sheet-2"));
    sheets.failCall(3, () => Response.json({ error: { code: 503, message: "The service is currently unavailable.", status: "UNAVAILABLE" } }, { status: 503 }));

    await expect(push(t, opId, 1, sheets)).rejects.toThrow(/HTTP 503/);
    expect((await api(ro(t), `/api/v1/exports/${opId}`)).body).toMatchObject({ status: "queued", pushes: [{ attempt: 1, status: "failed", final: false }] });
    expect(sheets.sheet("sheet-2")).toHaveLength(1);

    await push(t, opId, 2, sheets);
    expect(sheets.sheet("sheet-2")).toHaveLength(3);
    expect((await api(ro(t), `/api/v1/exports/${opId}`)).body).toMatchObject({
      status: "pushed",
      pushes: [{ attempt: 1, status: "failed" }, { attempt: 2, status: "pushed", rows: 2, final: true }],
    });
  });

  it("gives up at once on a refusal, and names it", async () => {
    const t = await bookedTenant();
    sheets.addSpreadsheet("sheet-3");
    const opId = await openOp(t, await connect(t, "sheet-3", "an-expired-token"));
    await push(t, opId, 1, sheets);
    const op = (await api(ro(t), `/api/v1/exports/${opId}`)).body;
    expect(op).toMatchObject({ status: "failed", pushes: [{ attempt: 1, status: "failed", final: true }] });
    expect(op.pushes[0].error).toContain("HTTP 401: Request had invalid authentication credentials.");
  });

  it("does not write to a destination disconnected after the op", async () => {
    const t = await bookedTenant();
    sheets.addSpreadsheet("sheet-4");
    const destination = await connect(t, "sheet-4");
    const opId = await openOp(t, destination);
    const answer = await SELF.fetch(`${BASE}/settings/destinations/${destination}/disconnect`, { method: "POST", headers: { cookie: `svc_session=${t.session}` } });
    expect(answer.status).toBe(200);
    await push(t, opId, 1, sheets);
    expect(sheets.requests).toHaveLength(0);
    expect((await api(ro(t), `/api/v1/exports/${opId}`)).body.pushes[0]).toMatchObject({ final: true, error: "the destination was disconnected before the push" });
  });
});

describe("export_books with destinations", () => {
  it("appends a resync op to the newest live destination and the queue pushes it", async () => {
    const t = await bookedTenant();
    await connect(t, "older");
    const newest = await connect(t, "newer");
    const answer = await api(rw(t), "/api/v1/export", { method: "POST", body: {} });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ kind: "resync", op_id: expect.any(Number), destination_id: newest, destinations: "known", status: "queued", pushes: [] });

    // The real consumer takes it; the test deployment's spreadsheet API is unreachable, so it
    // is tried on every delivery and then failed for good, naming why.
    const op = await eventually("the push ended", async () => {
      const seen = (await api(ro(t), `/api/v1/exports/${answer.body.op_id}`)).body;
      return seen.status === "queued" ? undefined : seen;
    });
    expect(op.status).toBe("failed");
    expect(op.pushes.length).toBe(4);
    expect(op.pushes.at(-1)).toMatchObject({ final: true, error: expect.stringContaining("could not be reached") });
  });

  it("pushes to the destination named, and renders the bundle again once all are disconnected", async () => {
    const t = await bookedTenant();
    const first = await connect(t, "first");
    await connect(t, "second");
    expect((await api(rw(t), "/api/v1/export", { method: "POST", body: { destination_id: first } })).body).toMatchObject({ kind: "resync", destination_id: first });

    for (const d of await liveDestinations(env.INDEX_DB, t.tenant)) {
      await SELF.fetch(`${BASE}/settings/destinations/${d.id}/disconnect`, { method: "POST", headers: { cookie: `svc_session=${t.session}` } });
    }
    expect((await api(rw(t), "/api/v1/export", { method: "POST", body: { destination_id: first } })).status).toBe(404);
    expect((await api(rw(t), "/api/v1/export", { method: "POST", body: {} })).body).toMatchObject({ kind: "bundle", destinations: "known" });
  });

  it("says `unreadable`, never `known`, when the destination list cannot be read", async () => {
    const t = await bookedTenant();
    const context = {
      d1: env.UNMIGRATED_DB,
      queue: env.JOB_QUEUE,
      ledger: ledgerOf(env, t.tenant),
      tenant: t.tenant,
      actor: `human:${t.tenant}`,
      face: faceFor({ tier: "paid", visibleFrom: null }),
      now: new Date(),
      origin: BASE,
    };
    expect(await requestExport(context, undefined)).toMatchObject({ kind: "bundle", destinations: "unreadable", row_counts: { "transactions.csv": 2 } });
    await expect(requestExport(context, 1)).rejects.toMatchObject({ status: 503, code: "destinations_unreadable" });
  });
});
