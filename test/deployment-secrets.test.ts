/**
 * A deployment started with the sandbox off and its secrets missing (docs/deploy.md, "A
 * secret missing"): each feature that needs one refuses with a 503 naming it and writes
 * nothing, never a 500 and never the sandbox's fixed keys; the rest of the service serves.
 */
import { env } from "cloudflare:test";
import { beforeEach, describe, expect, it } from "vitest";
import { findTenant } from "../src/auth/tenants";
import { FakeMail, MAIL_BASE_URL } from "./fixtures/fake-mail";
import { restoreOutboundAfterEach, routeOutbound } from "./fixtures/outbound";
import { VIEWER } from "./fixtures/sandbox";
import { offFetch, postForm, postSignUp, signedUp, signInAs, signUpBody, verifyFromMail } from "./fixtures/sandbox-off";

/** Every secret src/env.ts reads, unset (docs/deploy.md, "Secrets"). */
const NO_SECRETS = {
  EMAIL_API_TOKEN: undefined,
  AGGREGATOR_CLIENT_ID: undefined,
  AGGREGATOR_SECRET: undefined,
  BANK_TOKEN_KEY: undefined,
  GRANT_CODE_KEY: undefined,
  SMS_ACCOUNT_SID: undefined,
  SMS_AUTH_TOKEN: undefined,
  MODEL_API_KEY: undefined,
  SPREADSHEET_OAUTH_CLIENT_SECRET: undefined,
  SPREADSHEET_TOKEN_KEY: undefined,
  SPREADSHEET_TOKEN_KEY_PREVIOUS: undefined,
};
/** All but the mail's, which the customer needs to sign up and verify the email. */
const { EMAIL_API_TOKEN: _mail, ...NO_SECRETS_BUT_MAIL } = NO_SECRETS;

restoreOutboundAfterEach();
let mail: FakeMail;
beforeEach(() => {
  mail = new FakeMail();
  routeOutbound({ [MAIL_BASE_URL]: mail });
});

async function problem(answer: Response) {
  expect(answer.headers.get("content-type")).toBe("application/problem+json");
  return { status: answer.status, ...((await answer.json()) as { code: string; detail: string }) };
}

describe("a deployment with the sandbox off and no secrets", () => {
  it("refuses a sign-up with 503 email_unavailable naming the mail service, writing nothing; so without a sender", async () => {
    for (const vars of [NO_SECRETS, { EMAIL_FROM: "" }]) {
      const body = signUpBody();
      const refused = await problem(await postSignUp(body, { vars }));
      expect(refused).toMatchObject({ status: 503, code: "email_unavailable", detail: expect.stringContaining("EMAIL_API_TOKEN, EMAIL_FROM") });
      expect(await findTenant(env.INDEX_DB, body.tenant as string)).toBeUndefined();
    }
    expect(mail.sent).toEqual([]);
  });

  it("serves a customer's books, and refuses a bank link naming the token key, then the aggregator's credentials", async () => {
    const owner = await signedUp();
    await verifyFromMail(mail, owner.email);
    const sessionCookie = await signInAs(owner);
    const me = await offFetch("/api/v1/me", { headers: { cookie: `svc_session=${sessionCookie}` } }, NO_SECRETS_BUT_MAIL);
    expect(me.status).toBe(200);

    const noKey = await postForm("/settings/banks/link", {}, { session: sessionCookie, vars: NO_SECRETS_BUT_MAIL });
    expect(noKey.status).toBe(503);
    expect(await noKey.text()).toContain("no BANK_TOKEN_KEY");
    const noAggregator = await postForm("/settings/banks/link", {}, { session: sessionCookie, vars: { ...NO_SECRETS_BUT_MAIL, BANK_TOKEN_KEY: env.BANK_TOKEN_KEY } });
    expect(noAggregator.status).toBe(503);
    expect(await noAggregator.text()).toContain("no aggregator credentials");
  });

  it("refuses an auditor grant with 503 naming the SMS credential, then the grant code key, filing nothing", async () => {
    const owner = await signedUp();
    await verifyFromMail(mail, owner.email);
    const cookie = `svc_session=${await signInAs(owner)}`;
    const offer = (vars: Record<string, unknown>) =>
      offFetch("/api/v1/auditor/grants", { method: "POST", headers: { cookie, "content-type": "application/json", origin: "https://ledger.test" }, body: JSON.stringify(VIEWER) }, { ...NO_SECRETS_BUT_MAIL, ...vars });
    expect(await problem(await offer({}))).toMatchObject({ status: 503, code: "sms_unavailable" });
    const withCarrier = { SMS_ACCOUNT_SID: "AC1", SMS_AUTH_TOKEN: "tok", SMS_FROM: "+15555550199", SMS_API_BASE_URL: "https://carrier.test" };
    expect(await problem(await offer(withCarrier))).toMatchObject({ status: 503, code: "grant_key_missing", detail: expect.stringContaining("GRANT_CODE_KEY") });
    const filed = await env.INDEX_DB.prepare("SELECT count(*) AS n FROM grant_requests WHERE tenant_id = ?").bind(owner.tenant).first<{ n: number }>();
    expect(filed!.n).toBe(0);
  });

  it("refuses to connect a spreadsheet destination with 503 naming what is missing", async () => {
    const owner = await signedUp();
    await verifyFromMail(mail, owner.email);
    const sessionCookie = await signInAs(owner);
    const refused = await postForm("/settings/destinations", { spreadsheet_id: "sheet-1", sheet: "Books", refresh_token: "a-refresh-token" }, { session: sessionCookie, vars: NO_SECRETS_BUT_MAIL });
    expect(refused.status).toBe(503);
    expect(await refused.text()).toMatch(/SPREADSHEET_(TOKEN_KEY|OAUTH_CLIENT)/);
  });
});
