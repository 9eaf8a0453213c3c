/**
 * The aggregator adapter against the fake aggregator of test/fixtures/fake-aggregator.ts:
 * a small Hono app that speaks the common `POST /transactions/sync` contract (credentials
 * and access token in the JSON body, `count` changes per page after `cursor`, `has_more`
 * until the feed is drained).
 */
import { describe, expect, it } from "vitest";
import { ACCESS_TOKEN, aggregatorError, CLIENT_ID, FakeAggregator, mutationDuringPagination, SECRET } from "../../../test/fixtures/fake-aggregator";
import { BankProviderError, type FeedPage } from "./types";

function line(id: string, fields: Record<string, unknown> = {}): { transaction_id: string; [field: string]: unknown } {
  return { transaction_id: id, account_id: "acc_checking", amount: 10, date: "2026-11-20", name: `LINE ${id}`, ...fields };
}

const CHECKING = { account_id: "acc_checking", name: "Business Checking", mask: "0042", type: "depository", subtype: "checking" };

/** The rejection of `promise`, asserted to be a BankProviderError. */
async function providerError(promise: Promise<unknown>): Promise<BankProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BankProviderError);
  return error as BankProviderError;
}

describe("AggregatorBank: the request it sends", () => {
  it("posts the credentials, the access token and the page size, and no cursor on the first call", async () => {
    const fake = new FakeAggregator();
    fake.add("added", line("t1"));
    await fake.bank({ pageSize: 25 }).syncPage("");

    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: "POST", path: "/transactions/sync", contentType: "application/json" });
    // Exactly these keys: `cursor` is left out, not sent as null or "".
    expect(request!.body).toEqual({ client_id: CLIENT_ID, secret: SECRET, access_token: ACCESS_TOKEN, count: 25 });
    expect("cursor" in request!.body).toBe(false);
  });

  it("sends the cursor it is given on later calls", async () => {
    const fake = new FakeAggregator();
    fake.add("added", line("t1"), line("t2"), line("t3"), line("t4"));
    await fake.bank().syncPage("c-3");
    expect(fake.requests[0]!.body).toEqual({ client_id: CLIENT_ID, secret: SECRET, access_token: ACCESS_TOKEN, cursor: "c-3", count: 3 });
  });

  it("asks for 500 changes a page when no page size is configured", async () => {
    const fake = new FakeAggregator();
    await fake.bank({ pageSize: undefined }).syncPage("");
    expect(fake.requests[0]!.body.count).toBe(500);
  });
});

describe("AggregatorBank: the address it calls", () => {
  it.each([
    ["https://aggregator.test/v2", "/v2", "/v2/transactions/sync"],
    ["https://aggregator.test/v2/", "/v2", "/v2/transactions/sync"],
    ["https://aggregator.test", "/", "/transactions/sync"],
    ["https://aggregator.test/", "/", "/transactions/sync"],
  ])("calls /transactions/sync under the base address %s", async (baseUrl, basePath, path) => {
    const fake = new FakeAggregator({ basePath });
    fake.add("added", line("t1"));
    const page = await fake.bank({ baseUrl }).syncPage("");
    expect(fake.requests.map((r) => r.path)).toEqual([path]);
    expect(page.added).toEqual([line("t1")]);
  });
});

describe("AggregatorBank: paging", () => {
  it("pages through has_more until it is false, each page starting where the last ended", async () => {
    const fake = new FakeAggregator();
    fake.accounts.push(CHECKING);
    fake.add("added", line("t1"), line("t2"), line("t3"), line("t4"));
    fake.add("modified", line("t2", { amount: 11 }));
    fake.add("added", line("t5"));
    fake.add("removed", { transaction_id: "t3" });
    const bank = fake.bank();

    const pages: FeedPage[] = [];
    let cursor = "";
    for (;;) {
      const page = await bank.syncPage(cursor);
      pages.push(page);
      cursor = page.nextCursor;
      if (!page.hasMore) break;
      expect(pages.length).toBeLessThan(10);
    }

    expect(pages.map((p) => [p.cursorBefore, p.nextCursor, p.hasMore])).toEqual([
      ["", "c-3", true],
      ["c-3", "c-6", true],
      ["c-6", "c-7", false],
    ]);
    expect(fake.requests.map((r) => r.body.cursor)).toEqual([undefined, "c-3", "c-6"]);
    expect(pages.map((p) => [p.added.length, p.modified.length, p.removed.length])).toEqual([
      [3, 0, 0],
      [2, 1, 0],
      [0, 0, 1],
    ]);
    expect(pages.flatMap((p) => p.added.map((a) => a.transaction_id))).toEqual(["t1", "t2", "t3", "t4", "t5"]);
    expect(pages[1]!.modified).toEqual([line("t2", { amount: 11 })]);
    expect(pages[2]!.removed).toEqual([{ transaction_id: "t3" }]);
    for (const page of pages) expect(page.accounts).toEqual([CHECKING]);
  });

  it("answers a drained feed with an empty last page that keeps its cursor", async () => {
    const fake = new FakeAggregator();
    fake.add("added", line("t1"));
    const page = await fake.bank().syncPage("c-1");
    expect(page).toEqual({ cursorBefore: "c-1", nextCursor: "c-1", hasMore: false, accounts: [], added: [], modified: [], removed: [] });
  });
});

describe("AggregatorBank: what it passes through", () => {
  it("hands over amounts and fields verbatim, unknown fields included", async () => {
    const fake = new FakeAggregator();
    const account = { ...CHECKING, balances: { available: 1203.5, current: 1250.25, iso_currency_code: "USD" }, official_name: null };
    fake.accounts.push(account);
    const sent = [
      line("t1", { amount: 12.34, name: "SQ *BLUE BOTTLE 1234", merchant_name: "Blue Bottle", iso_currency_code: "USD" }),
      line("t2", { amount: -1500, name: "CLIENT PAYMENT", merchant_name: null, authorized_date: null }),
      line("t3", { amount: 0.1, pending: true, authorized_date: "2026-11-19", pending_transaction_id: null }),
      line("t4", {
        amount: 1e12 - 0.01,
        personal_finance_category: { primary: "GENERAL_SERVICES", detailed: "GENERAL_SERVICES_OTHER" },
        location: { city: "Chicago", region: "IL", lat: null },
        payment_channel: "in store",
      }),
      line("t5", { amount: 0, name: "  spaces kept  ", unofficial_currency_code: null }),
    ];
    fake.add("added", ...sent);

    const page = await fake.bank({ pageSize: 10 }).syncPage("");
    expect(page.added).toEqual(sent);
    expect(page.added.map((a) => a.amount)).toEqual([12.34, -1500, 0.1, 1e12 - 0.01, 0]);
    expect(page.accounts).toEqual([account]);
    expect(page.hasMore).toBe(false);
  });

  it("treats a page without accounts as one with none", async () => {
    const fake = new FakeAggregator();
    fake.intercept = () => Response.json({ added: [line("t1")], modified: [], removed: [], next_cursor: "c-1", has_more: false });
    const page = await fake.bank().syncPage("");
    expect(page.accounts).toEqual([]);
    expect(page.added).toEqual([line("t1")]);
  });
});

describe("AggregatorBank: refusals", () => {
  it("reports a wrong access token as non-retryable, naming the aggregator's code", async () => {
    const fake = new FakeAggregator();
    const error = await providerError(fake.bank({ accessToken: "access-revoked" }).syncPage(""));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("the aggregator refused the sync (INVALID_ACCESS_TOKEN: provided access token is in an invalid format)");
  });

  it("reports wrong client credentials as non-retryable, naming the code", async () => {
    const fake = new FakeAggregator();
    const wrongSecret = await providerError(fake.bank({ secret: "not-the-secret" }).syncPage(""));
    expect(wrongSecret.retryable).toBe(false);
    expect(wrongSecret.message).toContain("INVALID_API_KEYS");
    const wrongClient = await providerError(fake.bank({ clientId: "someone-else" }).syncPage(""));
    expect(wrongClient.message).toContain("INVALID_API_KEYS");
  });

  it("reports a 400 with an unknown cursor as non-retryable", async () => {
    const fake = new FakeAggregator();
    const error = await providerError(fake.bank().syncPage("c-99"));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("INVALID_CURSOR");
  });

  it("reports a 400 without an error body by its HTTP status", async () => {
    const fake = new FakeAggregator();
    fake.intercept = () => new Response("bad request", { status: 400 });
    const error = await providerError(fake.bank().syncPage(""));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("the aggregator refused the sync (HTTP 400)");
  });

  it("reports rate limiting (429) as retryable", async () => {
    const fake = new FakeAggregator();
    fake.intercept = () => aggregatorError(429, "RATE_LIMIT_EXCEEDED", "TRANSACTIONS_SYNC_LIMIT", "rate limit exceeded for this item");
    const error = await providerError(fake.bank().syncPage(""));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe("the aggregator refused the sync (TRANSACTIONS_SYNC_LIMIT: rate limit exceeded for this item)");
  });

  it("reports server errors (500, and a 503 that is not JSON) as retryable", async () => {
    const fake = new FakeAggregator();
    fake.intercept = () => aggregatorError(500, "API_ERROR", "INTERNAL_SERVER_ERROR", "an unexpected error occurred");
    const internal = await providerError(fake.bank().syncPage(""));
    expect(internal.retryable).toBe(true);
    expect(internal.message).toBe("the aggregator refused the sync (INTERNAL_SERVER_ERROR: an unexpected error occurred)");

    fake.intercept = () => new Response("<html>Service Unavailable</html>", { status: 503, headers: { "content-type": "text/html" } });
    const unavailable = await providerError(fake.bank().syncPage(""));
    expect(unavailable.retryable).toBe(true);
    expect(unavailable.message).toBe("the aggregator refused the sync (HTTP 503)");
  });

  it("reports an error body without a message by its code alone", async () => {
    const fake = new FakeAggregator();
    fake.intercept = () => Response.json({ error_code: "ITEM_LOGIN_REQUIRED" }, { status: 400 });
    const error = await providerError(fake.bank().syncPage(""));
    expect(error.message).toBe("the aggregator refused the sync (ITEM_LOGIN_REQUIRED)");
  });

  it("reports a feed that changed while being paged (400) as retryable", async () => {
    const fake = new FakeAggregator();
    fake.add("added", line("t1"), line("t2"), line("t3"), line("t4"));
    fake.answerCall(2, mutationDuringPagination);
    const bank = fake.bank();
    const first = await bank.syncPage("");
    const error = await providerError(bank.syncPage(first.nextCursor));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe(
      "the aggregator refused the sync (TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION: underlying transaction data changed since the last page was fetched)",
    );
    // The same code without a message is retryable too.
    fake.intercept = () => aggregatorError(400, "TRANSACTIONS_ERROR", "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION");
    const bare = await providerError(bank.syncPage(first.nextCursor));
    expect(bare.retryable).toBe(true);
    expect(bare.message).toBe("the aggregator refused the sync (TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION)");
  });

  it("reports a network failure as retryable", async () => {
    const fake = new FakeAggregator();
    fake.networkDownOnFetch = 1;
    const error = await providerError(fake.bank().syncPage(""));
    expect(error.retryable).toBe(true);
    expect(error.message).toBe("the aggregator could not be reached: TypeError: Network connection lost.");
    expect(fake.requests).toHaveLength(0);
  });
});

describe("AggregatorBank: a 200 that is not a sync page", () => {
  const answering = (body: string) => {
    const fake = new FakeAggregator();
    fake.intercept = () => new Response(body, { status: 200, headers: { "content-type": "application/json" } });
    return fake.bank().syncPage("");
  };

  it("names every missing field of an unrelated JSON answer", async () => {
    const error = await providerError(answering(JSON.stringify({ status: "ok", items: [] })));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("the aggregator's answer is not a sync page (added, modified, removed, next_cursor, has_more)");
  });

  it("names next_cursor when it is missing", async () => {
    const error = await providerError(answering(JSON.stringify({ added: [], modified: [], removed: [], accounts: [], has_more: false })));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("the aggregator's answer is not a sync page (next_cursor)");
  });

  it("names the root when the body is not JSON at all", async () => {
    const error = await providerError(answering("<html>maintenance</html>"));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe("the aggregator's answer is not a sync page ((root))");
  });

  it("names the root when the body is JSON but not an object", async () => {
    const error = await providerError(answering("[]"));
    expect(error.message).toBe("the aggregator's answer is not a sync page ((root))");
  });

  it("names the bad field of a transaction", async () => {
    const body = {
      added: [line("t1"), line("t2", { amount: "12.34" }), line("t3", { date: "2026-02-30" })],
      modified: [],
      removed: [{}],
      next_cursor: "c-3",
      has_more: "no",
    };
    const error = await providerError(answering(JSON.stringify(body)));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      "the aggregator's answer is not a sync page (added.1.amount, added.2.date, removed.0.transaction_id, has_more)",
    );
  });
});
