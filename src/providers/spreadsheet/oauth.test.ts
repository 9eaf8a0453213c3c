/** The OAuth token endpoint adapter against a fake in Google's shape: the refresh grant's form, its answer, and each refusal as retryable or not. */
import { describe, expect, it } from "vitest";
import { FAKE_OAUTH_CLIENT, FAKE_TOKEN_URL, FakeOAuth } from "../../../test/fixtures/fake-oauth";
import { FakeSheets } from "../../../test/fixtures/fake-sheets";
import { refreshAccessToken } from "./oauth";
import { SpreadsheetError } from "./sheets";

const CONFIG = { tokenUrl: FAKE_TOKEN_URL, clientId: FAKE_OAUTH_CLIENT.id, clientSecret: FAKE_OAUTH_CLIENT.secret };
const NOW = new Date("2026-11-21T11:00:00.000Z");

async function refusal(call: Promise<unknown>): Promise<SpreadsheetError> {
  const error = await call.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SpreadsheetError);
  return error as SpreadsheetError;
}

describe("refreshing an access token", () => {
  it("posts the refresh grant with the client and reads the token and its lifetime", async () => {
    const fake = new FakeOAuth(new FakeSheets());
    const refresh = fake.mint();
    const fresh = await refreshAccessToken(CONFIG, refresh, { fetch: fake.fetch, now: NOW });
    expect(fresh).toEqual({ accessToken: "ya29.fake-access-2", expiresAt: new Date("2026-11-21T11:59:59.000Z"), refreshToken: null });
    expect(fake.requests).toEqual([{ grant_type: "refresh_token", refresh_token: refresh, client_id: CONFIG.clientId, client_secret: CONFIG.clientSecret }]);
    fake.rotate = true;
    expect((await refreshAccessToken(CONFIG, refresh, { fetch: fake.fetch, now: NOW })).refreshToken).toBe("1//fake-refresh-4");
  });

  it("ends at once on a revoked grant or a refused client, and tries again on a failure of the server or the network", async () => {
    const fake = new FakeOAuth(new FakeSheets());
    const revoked = await refusal(refreshAccessToken(CONFIG, "1//never-minted", { fetch: fake.fetch }));
    expect(revoked).toMatchObject({ retryable: false, message: expect.stringContaining("(invalid_grant: Token has been expired or revoked.); connect the spreadsheet again") });
    const client = await refusal(refreshAccessToken({ ...CONFIG, clientSecret: "wrong" }, fake.mint(), { fetch: fake.fetch }));
    expect(client).toMatchObject({ retryable: false, message: expect.stringContaining("invalid_client") });

    fake.failCall(1, () => new Response("upstream", { status: 502 }));
    expect(await refusal(refreshAccessToken(CONFIG, fake.mint(), { fetch: fake.fetch }))).toMatchObject({ retryable: true, message: expect.stringContaining("HTTP 502") });
    const down = await refusal(refreshAccessToken(CONFIG, "x", { fetch: async () => { throw new TypeError("Network connection lost."); } }));
    expect(down).toMatchObject({ retryable: true, message: expect.stringContaining("could not be reached") });
    const hollow = await refusal(refreshAccessToken(CONFIG, "x", { fetch: async () => Response.json({ token_type: "Bearer" }) }));
    expect(hollow).toMatchObject({ retryable: true, message: "the OAuth token endpoint's answer carried no access token and lifetime" });
  });
});
