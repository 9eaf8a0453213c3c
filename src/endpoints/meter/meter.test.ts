import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { recordMeter } from "../../index-db/meter";
import { api, createTenant, ro, rw, session } from "../../../test/fixtures/sandbox";

describe("get_meter", () => {
  it("lists the tenant's months newest first with the cap, its source and the mode", async () => {
    const t = await createTenant();
    await recordMeter(env.INDEX_DB, t.tenant, new Date(), { calls: 2, millicents: 40, linesSentToApi: 9, linesResolvedLocal: 30 });
    await recordMeter(env.INDEX_DB, t.tenant, new Date(Date.now() - 62 * 86_400_000), { calls: 1, millicents: null });
    const answer = await api(ro(t), "/api/v1/meter");
    expect(answer.status).toBe(200);
    expect(answer.body.months).toHaveLength(2);
    expect(answer.body.months[0]).toEqual({
      month: expect.stringMatching(/^\d{4}-\d{2}$/),
      calls: 2,
      millicents: 40,
      unpriced_calls: 0,
      lines_resolved_local: 30,
      lines_sent_to_api: 9,
      cap_tier: "paid",
      cap_millicents_month: 1_000_000,
      cap_source: "tier_table",
      mode: "interactive",
    });
    expect(answer.body.months[1]).toMatchObject({ calls: 1, millicents: 0, unpriced_calls: 1 });
    expect(answer.body.months[0].month > answer.body.months[1].month).toBe(true);
    expect((await api(rw(t), "/api/v1/meter?months=1")).body.months).toHaveLength(1);
    expect((await api(session(t), "/api/v1/meter?months=500")).status).toBe(200);
  });

  it("refuses months below 1, and shows a tenant only its own meter", async () => {
    const t = await createTenant();
    expect((await api(rw(t), "/api/v1/meter?months=0")).body.errors[0].field).toBe("query.months");
    const other = await createTenant();
    await recordMeter(env.INDEX_DB, other.tenant, new Date(), { calls: 5 });
    expect((await api(rw(t), "/api/v1/meter")).body).toEqual({ months: [] });
  });
});
