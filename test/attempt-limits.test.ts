/**
 * Failed sign-ins and grant confirmations are limited per tenant and per client address:
 * 429 with Retry-After, before the password or the code is checked; success never counts.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ATTEMPT_POLICIES } from "../src/limits/attempts";
import { api, BASE, createTenant, outbox, session, VIEWER } from "./fixtures/sandbox";

const PASSWORD = "correct horse battery staple";

function signIn(tenant: string, password: string, address: string) {
  return SELF.fetch(`${BASE}/signin`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE, "cf-connecting-ip": address },
    body: new URLSearchParams({ tenant, password }),
  });
}

describe("sign-in", () => {
  it("refuses a tenant with 429 after its failures, even with the right password, and not its neighbours", async () => {
    const t = await createTenant({ password: PASSWORD });
    const neighbour = await createTenant({ password: PASSWORD });
    const limit = ATTEMPT_POLICIES.signin.perTenant;
    for (let i = 0; i < limit; i++) expect((await signIn(t.tenant, "wrong password", `10.0.0.${i}`)).status).toBe(401);
    const refused = await signIn(t.tenant, PASSWORD, "10.0.1.1");
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(ATTEMPT_POLICIES.signin.windowSeconds);
    expect(await refused.text()).toContain("Too many failed sign-in attempts");
    expect((await signIn(neighbour.tenant, PASSWORD, "10.0.1.1")).status).toBe(303);
  });

  it("refuses a client address with 429 after its failures across tenants, and not other addresses", async () => {
    const t = await createTenant({ password: PASSWORD });
    for (let i = 0; i < ATTEMPT_POLICIES.signin.perAddress; i++) {
      expect((await signIn(`nobody-${i}`, "guess", "192.0.2.7")).status).toBe(401);
    }
    expect((await signIn(t.tenant, PASSWORD, "192.0.2.7")).status).toBe(429);
    expect((await signIn(t.tenant, PASSWORD, "192.0.2.8")).status).toBe(303);
  });

  it("does not count a success", async () => {
    const t = await createTenant({ password: PASSWORD });
    for (let i = 0; i < ATTEMPT_POLICIES.signin.perTenant + 2; i++) expect((await signIn(t.tenant, PASSWORD, "198.51.100.1")).status).toBe(303);
  });
});

describe("grant confirmation", () => {
  it("refuses a tenant with 429 after its failed confirmations, before checking the code", async () => {
    const t = await createTenant();
    const headers = { "cf-connecting-ip": "203.0.113.9" };
    let failures = 0;
    while (failures < ATTEMPT_POLICIES.confirm.perTenant) {
      const offer = await api(session(t), "/api/v1/auditor/grants", { method: "POST", body: VIEWER });
      const code = /\b(\d{6})\b/.exec((await outbox(t))[0]!.body)![1]!;
      for (let i = 0; i < 5 && failures < ATTEMPT_POLICIES.confirm.perTenant; i++, failures++) {
        const wrong = String((Number(code) + 1 + i) % 1_000_000).padStart(6, "0");
        const answer = await api(session(t), `/api/v1/auditor/grants/${offer.body.request_id}/confirm`, { method: "POST", body: { ...VIEWER, code: wrong }, headers });
        expect(answer.body.code).toBe("code_wrong");
      }
    }
    const offer = await api(session(t), "/api/v1/auditor/grants", { method: "POST", body: VIEWER });
    const code = /\b(\d{6})\b/.exec((await outbox(t))[0]!.body)![1]!;
    const refused = await api(session(t), `/api/v1/auditor/grants/${offer.body.request_id}/confirm`, { method: "POST", body: { ...VIEWER, code }, headers });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body.code).toBe("too_many_requests");
  });
});
