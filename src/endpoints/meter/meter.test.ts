import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { monthOf, recordMeter, setCapOverride } from "../../index-db/meter";
import { TAIL_SPEND_CAPS } from "../../tiers";
import { api, createTenant, ro, rw, session } from "../../../test/fixtures/sandbox";

/** Mid-month, `back` calendar months before the current America/Chicago month. */
function monthsAgo(back: number): Date {
  const [year, month] = monthOf(new Date()).split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1 - back, 15, 18));
}

const listed = (body: any): string[] => body.months.map((m: any) => m.month);

describe("get_meter", () => {
  it("lists the tenant's months newest first with every field, the cap, its source and the mode", async () => {
    const t = await createTenant();
    await recordMeter(env.INDEX_DB, t.tenant, new Date(), { calls: 1, millicents: 40, linesSentToApi: 9 });
    await recordMeter(env.INDEX_DB, t.tenant, new Date(), { linesResolvedLocal: 30 });
    await recordMeter(env.INDEX_DB, t.tenant, monthsAgo(2), { calls: 1, millicents: null, linesSentToApi: 3 });
    const answer = await api(ro(t), "/api/v1/meter");
    expect(answer.status).toBe(200);
    const cap = { cap_tier: "paid", cap_millicents_month: TAIL_SPEND_CAPS.paid, cap_source: "tier_table" };
    expect(answer.body).toEqual({
      months: [
        { month: monthOf(new Date()), calls: 1, millicents: 40, unpriced_calls: 0, lines_resolved_local: 30, lines_sent_to_api: 9, ...cap, mode: "interactive" },
        { month: monthOf(monthsAgo(2)), calls: 1, millicents: 0, unpriced_calls: 1, lines_resolved_local: 0, lines_sent_to_api: 3, ...cap, mode: "interactive" },
      ],
    });
  });

  it("shows a tenant's own cap and the batched mode at the cap", async () => {
    const t = await createTenant({ tier: "free" });
    await setCapOverride(env.INDEX_DB, t.tenant, 40, new Date());
    await recordMeter(env.INDEX_DB, t.tenant, new Date(), { calls: 1, millicents: 40 });
    const [month] = (await api(rw(t), "/api/v1/meter")).body.months;
    expect(month).toMatchObject({ millicents: 40, cap_tier: "free", cap_millicents_month: 40, cap_source: "tenant_override", mode: "batched" });
  });

  it("defaults to 36 months, clamps above 120 to 120, and refuses below 1", async () => {
    const t = await createTenant();
    for (const back of [0, 1, 35, 36, 119, 120]) await recordMeter(env.INDEX_DB, t.tenant, monthsAgo(back), { linesResolvedLocal: 1 });
    const back = (n: number) => monthOf(monthsAgo(n));
    const now = back(0);
    expect(listed((await api(rw(t), "/api/v1/meter")).body)).toEqual([now, back(1), back(35)]);
    expect(listed((await api(rw(t), "/api/v1/meter?months=36")).body)).toEqual([now, back(1), back(35)]);
    expect(listed((await api(rw(t), "/api/v1/meter?months=37")).body)).toEqual([now, back(1), back(35), back(36)]);
    const all = [now, back(1), back(35), back(36), back(119)];
    expect(listed((await api(rw(t), "/api/v1/meter?months=120")).body)).toEqual(all);
    expect(listed((await api(rw(t), "/api/v1/meter?months=121")).body)).toEqual(all);
    expect(listed((await api(rw(t), "/api/v1/meter?months=100000")).body)).toEqual(all);
    expect(listed((await api(rw(t), "/api/v1/meter?months=1")).body)).toEqual([now]);
    for (const bad of ["0", "-1", "1.5", "abc", ""]) {
      const answer = await api(rw(t), `/api/v1/meter?months=${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.code).toBe("invalid_request");
      expect(answer.body.errors.map((e: any) => e.field)).toEqual(["query.months"]);
    }
  });

  it("answers a read-only token, a read-write token and a session alike, and no one without a credential", async () => {
    const t = await createTenant();
    await recordMeter(env.INDEX_DB, t.tenant, new Date(), { calls: 1, millicents: 7 });
    const answers = await Promise.all([ro(t), rw(t), session(t)].map((credential) => api(credential, "/api/v1/meter")));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(answers[0]!.body);
    }
    expect(answers[0]!.body.months[0].millicents).toBe(7);
    expect((await api(undefined, "/api/v1/meter")).status).toBe(401);
  });

  it("never shows another tenant's meter", async () => {
    const t = await createTenant();
    const other = await createTenant();
    await recordMeter(env.INDEX_DB, t.tenant, new Date(), { calls: 1, millicents: 11 });
    await recordMeter(env.INDEX_DB, other.tenant, new Date(), { calls: 1, millicents: 5_000, linesResolvedLocal: 77 });
    await recordMeter(env.INDEX_DB, other.tenant, monthsAgo(3), { linesSentToApi: 4 });
    await setCapOverride(env.INDEX_DB, other.tenant, 1, new Date());
    const mine = (await api(rw(t), "/api/v1/meter")).body.months;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ calls: 1, millicents: 11, lines_resolved_local: 0, cap_source: "tier_table", mode: "interactive" });
    const theirs = (await api(session(other), "/api/v1/meter")).body.months;
    expect(theirs.map((m: any) => m.millicents)).toEqual([5_000, 0]);
  });

  it("answers an empty list for a tenant with no activity", async () => {
    const t = await createTenant({ tier: "free" });
    expect(await api(ro(t), "/api/v1/meter")).toMatchObject({ status: 200, body: { months: [] } });
    expect((await api(ro(t), "/api/v1/meter?months=120")).body).toEqual({ months: [] });
  });
});
