/** The link adapter against the fake aggregator (test/fixtures/fake-aggregator.ts): link tokens, how a link ended, the exchange, removal, keys. */
import { describe, expect, it } from "vitest";
import { CLIENT_ID, FakeAggregator, SECRET, aggregatorError } from "../../../test/fixtures/fake-aggregator";
import { LINK_URL_LIFETIME_SECONDS } from "./aggregator-link";
import { BankLinkError } from "./link";

const REQUEST = {
  tenant: "acme-bakery",
  clientName: "Ledger",
  webhookUrl: "https://ledger.test/hooks/bank",
  completionUri: "https://ledger.test/settings/banks/linked?state=s1",
};

async function refusal(promise: Promise<unknown>): Promise<BankLinkError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(BankLinkError);
  return error as BankLinkError;
}

describe("AggregatorLink: link tokens for the hosted page", () => {
  it("asks for a transactions link with the hosted page's return address and the webhook, and answers the page", async () => {
    const fake = new FakeAggregator();
    const token = await fake.link().createLinkToken(REQUEST);
    expect(token.url).toBe(`https://aggregator.test/hosted/${token.linkToken}`);
    expect(Date.parse(token.expiration)).toBeGreaterThan(Date.now());
    expect(fake.linkCalls).toHaveLength(1);
    expect(fake.linkCalls[0]).toMatchObject({ path: "/link/token/create", contentType: "application/json" });
    expect(fake.linkCalls[0]!.body).toEqual({
      client_id: CLIENT_ID,
      secret: SECRET,
      client_name: "Ledger",
      language: "en",
      country_codes: ["US"],
      user: { client_user_id: "acme-bakery" },
      products: ["transactions"],
      webhook: REQUEST.webhookUrl,
      hosted_link: { completion_redirect_uri: REQUEST.completionUri, url_lifetime_seconds: LINK_URL_LIFETIME_SECONDS },
    });
  });

  it("opens update mode with the item's access token and no product", async () => {
    const fake = new FakeAggregator();
    const first = await fake.link().createLinkToken(REQUEST);
    const { item } = fake.finishLink(first.linkToken);
    await fake.link().createLinkToken({ ...REQUEST, accessToken: item.accessToken });
    const body = fake.linkCalls.at(-1)!.body;
    expect(body.access_token).toBe(item.accessToken);
    expect("products" in body).toBe(false);
    const unknown = await refusal(fake.link().createLinkToken({ ...REQUEST, accessToken: "access-nobody" }));
    expect(unknown).toMatchObject({ code: "INVALID_ACCESS_TOKEN", retryable: false });
  });
});

describe("AggregatorLink: how a link ended", () => {
  it("is pending until the person finishes, then a new item's public token and institution", async () => {
    const fake = new FakeAggregator();
    const link = fake.link();
    const { linkToken } = await link.createLinkToken(REQUEST);
    expect(await link.linkResult(linkToken)).toEqual({ state: "pending" });
    fake.finishLink(linkToken, "Prairie Credit Union");
    expect(await link.linkResult(linkToken)).toEqual({ state: "success", publicToken: expect.stringMatching(/^public-fake-/), institution: "Prairie Credit Union" });
  });

  it("is exited when the person left, expired when the token lapsed", async () => {
    const fake = new FakeAggregator();
    const left = await fake.link().createLinkToken(REQUEST);
    fake.leaveLink(left.linkToken);
    expect(await fake.link().linkResult(left.linkToken)).toEqual({ state: "exited", reason: "the person left the bank's page (institution_not_found)" });
    fake.linkLifetimeMs = -1;
    const lapsed = await fake.link().createLinkToken(REQUEST);
    expect(await fake.link().linkResult(lapsed.linkToken)).toEqual({ state: "expired" });
    expect(await fake.link().linkResult("link-never-made")).toEqual({ state: "expired" });
  });

  it("is a success with no public token in update mode", async () => {
    const fake = new FakeAggregator();
    const first = await fake.link().createLinkToken(REQUEST);
    const { item } = fake.finishLink(first.linkToken);
    fake.requireLogin(item.itemId);
    const repair = await fake.link().createLinkToken({ ...REQUEST, accessToken: item.accessToken });
    fake.finishLink(repair.linkToken);
    expect(await fake.link().linkResult(repair.linkToken)).toMatchObject({ state: "success", institution: "Harbor Community Bank" });
    expect(item.loginRequired).toBe(false);
  });
});

describe("AggregatorLink: the exchange, removal and keys", () => {
  it("exchanges a public token once for the item's access token", async () => {
    const fake = new FakeAggregator();
    const { linkToken } = await fake.link().createLinkToken(REQUEST);
    const { item } = fake.finishLink(linkToken);
    const result = await fake.link().linkResult(linkToken);
    if (result.state !== "success" || !result.publicToken) throw new Error("no public token");
    expect(await fake.link().exchangePublicToken(result.publicToken)).toEqual({ accessToken: item.accessToken, itemId: item.itemId });
    expect(await refusal(fake.link().exchangePublicToken(result.publicToken))).toMatchObject({ code: "INVALID_PUBLIC_TOKEN", retryable: false });
  });

  it("removes an item, and answers a key it has or null for one it does not", async () => {
    const fake = new FakeAggregator();
    const { linkToken } = await fake.link().createLinkToken(REQUEST);
    const { item } = fake.finishLink(linkToken);
    await fake.link().removeItem(item.accessToken);
    expect(item.removed).toBe(true);
    const key = await fake.link().webhookKey(fake.keyId);
    expect(key).toMatchObject({ jwk: { kty: "EC", crv: "P-256" }, expiredAt: null });
    expect(await fake.link().webhookKey("no-such-key")).toBeNull();
  });

  it("names the aggregator's refusals: wrong credentials (final), an outage or a 429 (worth a retry), an answer not of its shape", async () => {
    const fake = new FakeAggregator();
    expect(await refusal(fake.link({ secret: "wrong" }).createLinkToken(REQUEST))).toMatchObject({
      code: "INVALID_API_KEYS",
      retryable: false,
      message: "the aggregator refused the link token (INVALID_API_KEYS: invalid client_id or secret provided)",
    });
    fake.intercept = () => aggregatorError(500, "API_ERROR", "INTERNAL_SERVER_ERROR", "an unexpected error occurred");
    expect(await refusal(fake.link().createLinkToken(REQUEST))).toMatchObject({ retryable: true, code: "INTERNAL_SERVER_ERROR" });
    fake.intercept = () => aggregatorError(429, "RATE_LIMIT_EXCEEDED", "RATE_LIMIT", "rate limit exceeded");
    expect((await refusal(fake.link().webhookKey(fake.keyId))).retryable).toBe(true);
    fake.intercept = () => Response.json({ link_token: "", expiration: "soon" });
    expect((await refusal(fake.link().createLinkToken(REQUEST))).message).toBe("the aggregator's answer to the link token is not what it documents (link_token, hosted_link_url)");
    fake.networkDownOnFetch = 5;
    fake.intercept = undefined;
    expect((await refusal(fake.link().createLinkToken(REQUEST))).message).toBe("the aggregator could not be reached: TypeError: Network connection lost.");
  });
});
