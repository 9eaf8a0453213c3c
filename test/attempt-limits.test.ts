/**
 * The attempt limits slow a guesser and never keep the owner out (docs/decisions.md,
 * "Sign-in" and "Attempt limits"). The schedules are checked through the domain code with
 * the clock in the test's hands (real Durable Objects and D1); the pages, the cookies and
 * the trust in CF-Connecting-IP through the Worker.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { confirmGrant } from "../src/auth/grants";
import { answerSignInCode, DEVICE_COOKIE, signIn, type SignInOutcome } from "../src/auth/signin";
import { ApiError } from "../src/errors";
import { CONFIRM, SIGNIN } from "../src/limits/attempts";
import worker from "../src/worker";
import { api, BASE, createTenant, eventually, outbox, session, VIEWER, type SandboxTenant } from "./fixtures/sandbox";

const PASSWORD = "correct horse battery staple";

let addresses = 0;
/** An address no other test uses (the limits count per address across tests). */
const freshAddress = () => `10.${Math.floor(++addresses / 250)}.${addresses % 250}.1`;

/** The domain's sign-in at a chosen instant; the texts it defers are awaited by `settle`. */
function signInAt(tenant: string, password: string, at: number, options: { address?: string | null; device?: string } = {}) {
  const deferred: Promise<unknown>[] = [];
  const outcome = signIn(env, {
    tenant,
    password,
    device: options.device,
    address: options.address === undefined ? freshAddress() : options.address,
    now: new Date(at),
    defer: (work) => deferred.push(work),
  });
  return { outcome, settle: async () => Promise.all(deferred) };
}

async function outcomeAt(tenant: string, password: string, at: number, options: { address?: string | null; device?: string } = {}): Promise<SignInOutcome> {
  const attempt = signInAt(tenant, password, at, options);
  const outcome = await attempt.outcome;
  await attempt.settle();
  return outcome;
}

function deviceOf(outcome: SignInOutcome): string {
  expect(outcome.kind).toBe("signed_in");
  return (outcome as Extract<SignInOutcome, { kind: "signed_in" }>).device.value;
}

/**
 * SIGNIN.untrusted.free wrong guesses from as many addresses as the address limit needs,
 * which puts the tenant past its untrusted failures (once past, a guess is answered with the code step).
 */
async function guessFromMany(tenant: string, at: number): Promise<void> {
  for (let failed = 0; failed < SIGNIN.untrusted.free; ) {
    const address = freshAddress();
    for (let i = 0; i < SIGNIN.address.free && failed < SIGNIN.untrusted.free; i++, failed++) {
      expect(["refused", "code"]).toContain((await outcomeAt(tenant, "wrong guess", at + failed, { address })).kind);
    }
  }
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1]!;

describe("sign-in: a guesser at one address", () => {
  it("is slowed: the free failures, then waits that double from 1 s to 15 minutes, even for the right password", async () => {
    const t = await createTenant({ password: PASSWORD });
    const address = freshAddress();
    const t0 = Date.now();
    for (let i = 0; i < SIGNIN.address.free; i++) expect((await outcomeAt(t.tenant, `guess ${i}`, t0 + i, { address })).kind).toBe("refused");
    let last = t0 + SIGNIN.address.free - 1;
    const waits: number[] = [];
    for (let i = 0; i < 12; i++) {
      const refused = await outcomeAt(t.tenant, PASSWORD, last + 1, { address });
      expect(refused.kind).toBe("wait");
      const seconds = (refused as Extract<SignInOutcome, { kind: "wait" }>).seconds;
      waits.push(seconds);
      // Just before the wait ends it still holds; when it ends the next guess is checked (and counted).
      expect((await outcomeAt(t.tenant, PASSWORD, last + seconds * 1000 - 1, { address })).kind).toBe("wait");
      last += seconds * 1000;
      expect((await outcomeAt(t.tenant, `guess at ${last}`, last, { address })).kind).toBe("refused");
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    const waiting = await outcomeAt(t.tenant, PASSWORD, last + 1, { address });
    expect(waiting).toMatchObject({ kind: "wait", detail: expect.stringContaining("Too many failed sign-in attempts from this client") });
  });

  it("keeps no one else out: the right password from another address is accepted meanwhile", async () => {
    const t = await createTenant({ password: PASSWORD });
    const guesser = freshAddress();
    const t0 = Date.now();
    for (let i = 0; i <= SIGNIN.address.free; i++) await outcomeAt(t.tenant, "guess", t0 + i, { address: guesser });
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 20, { address: guesser })).kind).toBe("wait");
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 21)).kind).toBe("signed_in");
  });

  it("starts afresh an hour after its last failures, and a success never counts", async () => {
    const t = await createTenant({ password: PASSWORD });
    const address = freshAddress();
    const t0 = Date.now();
    for (let i = 0; i < 3 * SIGNIN.address.free; i++) expect((await outcomeAt(t.tenant, PASSWORD, t0 + i, { address })).kind).toBe("signed_in");
    for (let i = 0; i <= SIGNIN.address.free; i++) await outcomeAt(t.tenant, "guess", t0 + 100 + i, { address });
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 200, { address })).kind).toBe("wait");
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 200 + SIGNIN.address.windowSeconds * 1000, { address })).kind).toBe("signed_in");
  });
});

describe("sign-in: guessing from many addresses", () => {
  it("never keeps out a browser the tenant trusts, even at a guesser's address", async () => {
    const t = await createTenant({ password: PASSWORD });
    const t0 = Date.now();
    const device = deviceOf(await outcomeAt(t.tenant, PASSWORD, t0));
    const shared = freshAddress();
    for (let i = 0; i <= SIGNIN.address.free; i++) await outcomeAt(t.tenant, "guess", t0 + 1 + i, { address: shared });
    await guessFromMany(t.tenant, t0 + 100);
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 200)).kind).toBe("code");
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 300, { address: shared })).kind).toBe("wait");
    const owner = await outcomeAt(t.tenant, PASSWORD, t0 + 301, { address: shared, device });
    expect(owner.kind).toBe("signed_in");
    // The browser keeps its cookie, trusted for another SIGNIN.deviceDays.
    expect(deviceOf(owner)).toBe(device);
  });

  it("past the untrusted failures, asks a new browser for a texted code; right and wrong passwords get the same answer", async () => {
    const t = await createTenant({ password: PASSWORD });
    const t0 = Date.now();
    const textsBefore = (await outbox(t)).length;
    await guessFromMany(t.tenant, t0);

    const wrong = await outcomeAt(t.tenant, "another guess", t0 + 100);
    expect(wrong).toMatchObject({ kind: "code", wrongCode: false });
    expect((await outbox(t)).length).toBe(textsBefore);

    const right = await outcomeAt(t.tenant, PASSWORD, t0 + 101);
    expect(right).toMatchObject({ kind: "code", wrongCode: false });
    const texts = await outbox(t);
    expect(texts.length).toBe(textsBefore + 1);
    expect(texts[0]!.body).toContain("sign-in code");
    const code = codeIn(texts[0]!.body);
    const challenge = (right as Extract<SignInOutcome, { kind: "code" }>).challenge;

    const answer = (code: string, at: number, theChallenge = challenge) =>
      answerSignInCode(env, { tenant: t.tenant, challenge: theChallenge, code, device: undefined, address: freshAddress(), now: new Date(at), defer: () => {} });
    // The challenge of a wrong password has no code: any answer is wrong, as a wrong code is.
    expect(await answer(code, t0 + 102, (wrong as Extract<SignInOutcome, { kind: "code" }>).challenge)).toMatchObject({ kind: "code", wrongCode: true });
    const otherCode = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    expect(await answer(otherCode, t0 + 103)).toMatchObject({ kind: "code", wrongCode: true });
    expect((await answer(code, t0 + 104)).kind).toBe("signed_in");
    // A code signs in once.
    expect(await answer(code, t0 + 105)).toMatchObject({ kind: "code", wrongCode: true });
  });

  it("ends a texted code after its wrong answers or its minutes, and texts a tenant only so many codes an hour", async () => {
    const t = await createTenant({ password: PASSWORD });
    const t0 = Date.now();
    await guessFromMany(t.tenant, t0);
    const codeAt = async (at: number) => {
      const outcome = (await outcomeAt(t.tenant, PASSWORD, at)) as Extract<SignInOutcome, { kind: "code" }>;
      return { challenge: outcome.challenge, code: codeIn((await outbox(t))[0]!.body) };
    };
    const answer = (challenge: string, code: string, at: number) =>
      answerSignInCode(env, { tenant: t.tenant, challenge, code, device: undefined, address: freshAddress(), now: new Date(at), defer: () => {} });

    const first = await codeAt(t0 + 100);
    const wrongCode = first.code === "000000" ? "000001" : "000000";
    for (let i = 0; i < SIGNIN.code.maxWrong; i++) expect((await answer(first.challenge, wrongCode, t0 + 101 + i)).kind).toBe("code");
    expect((await answer(first.challenge, first.code, t0 + 110)).kind).toBe("code");

    const second = await codeAt(t0 + 200);
    expect((await answer(second.challenge, second.code, t0 + 200 + SIGNIN.code.minutes * 60_000)).kind).toBe("code");

    const texted = (await outbox(t)).length;
    for (let i = 2; i < SIGNIN.code.textsPerWindow; i++) await codeAt(t0 + 300 + i);
    expect((await outbox(t)).length).toBe(texted + SIGNIN.code.textsPerWindow - 2);
    expect(await outcomeAt(t.tenant, PASSWORD, t0 + 400)).toMatchObject({ kind: "code" });
    expect((await outbox(t)).length).toBe(texted + SIGNIN.code.textsPerWindow - 2);
  });

  it("where no code can be texted, makes a new browser wait instead, and the trusted browser still gets in", async () => {
    const t = await createTenant({ password: PASSWORD, sms: false });
    const t0 = Date.now();
    const device = deviceOf(await outcomeAt(t.tenant, PASSWORD, t0));
    await guessFromMany(t.tenant, t0 + 1);
    const waiting = await outcomeAt(t.tenant, PASSWORD, t0 + 100);
    expect(waiting).toMatchObject({ kind: "wait", seconds: 1, detail: expect.stringContaining("to this tenant from browsers it has not seen") });
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 101, { device })).kind).toBe("signed_in");
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 1_100)).kind).toBe("signed_in");
  });
});

describe("sign-in: a trusted browser", () => {
  it("loses its trust for the hour after its own failures, and is then limited by its address like any other", async () => {
    const t = await createTenant({ password: PASSWORD });
    const t0 = Date.now();
    const device = deviceOf(await outcomeAt(t.tenant, PASSWORD, t0));
    const address = freshAddress();
    // Its own failures do not count against its address.
    for (let i = 0; i < SIGNIN.device.free; i++) expect((await outcomeAt(t.tenant, "typo", t0 + 1 + i, { address, device })).kind).toBe("refused");
    for (let i = 0; i < SIGNIN.address.free; i++) expect((await outcomeAt(t.tenant, "typo", t0 + 100 + i, { address, device })).kind).toBe("refused");
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 200, { address, device })).kind).toBe("wait");
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 200 + SIGNIN.device.windowSeconds * 1000, { address, device })).kind).toBe("signed_in");
  });

  it("is trusted by the tenant it signed in to and no other", async () => {
    const t = await createTenant({ password: PASSWORD });
    const other = await createTenant({ password: PASSWORD });
    const t0 = Date.now();
    const device = deviceOf(await outcomeAt(t.tenant, PASSWORD, t0));
    await guessFromMany(other.tenant, t0 + 1);
    expect((await outcomeAt(other.tenant, PASSWORD, t0 + 100, { device })).kind).toBe("code");
    await guessFromMany(t.tenant, t0 + 200);
    expect((await outcomeAt(t.tenant, PASSWORD, t0 + 300, { device })).kind).toBe("signed_in");
  });
});

describe("sign-in pages", () => {
  function post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return SELF.fetch(`${BASE}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE, ...headers },
      body: new URLSearchParams(form),
    });
  }
  // workerd has Headers.getSetCookie; the types in use do not declare it.
  const cookieOf = (answer: Response, name: string) =>
    (answer.headers as unknown as { getSetCookie(): string[] }).getSetCookie().find((c) => c.startsWith(`${name}=`));

  it("set the session and a device cookie sent only to the sign-in forms", async () => {
    const t = await createTenant({ password: PASSWORD });
    const answer = await post("/signin", { tenant: t.tenant, password: PASSWORD }, { "cf-connecting-ip": freshAddress() });
    expect(answer.status).toBe(303);
    expect(cookieOf(answer, "svc_session")).toBeDefined();
    const device = cookieOf(answer, DEVICE_COOKIE)!;
    expect(device).toMatch(/; HttpOnly/);
    expect(device).toMatch(/; Secure/);
    expect(device).toMatch(/; SameSite=Strict/);
    expect(device).toMatch(/; Path=\/signin(;|$)/);
    const expires = Date.parse(/Expires=([^;]+)/.exec(device)![1]!);
    expect(Math.round((expires - Date.now()) / 86_400_000)).toBe(SIGNIN.deviceDays);
  });

  it("let the owner's browser in past a guesser at the same address, which is answered 429 with Retry-After", async () => {
    const t = await createTenant({ password: PASSWORD });
    const address = freshAddress();
    const signedIn = await post("/signin", { tenant: t.tenant, password: PASSWORD }, { "cf-connecting-ip": address });
    const device = cookieOf(signedIn, DEVICE_COOKIE)!.split(";")[0]!;
    let refusal: Response | undefined;
    for (let i = 0; i < 3 * SIGNIN.address.free && !refusal; i++) {
      const answer = await post("/signin", { tenant: t.tenant, password: "guess" }, { "cf-connecting-ip": address });
      if (answer.status === 429) refusal = answer;
      else expect(answer.status).toBe(401);
    }
    expect(Number(refusal!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await refusal!.text()).toContain("Too many failed sign-in attempts from this client");
    const owner = await post("/signin", { tenant: t.tenant, password: PASSWORD }, { "cf-connecting-ip": address, cookie: device });
    expect(owner.status).toBe(303);
    expect(owner.headers.get("location")).toBe("/app/review");
  });

  it("take the texted code from a new browser while many guesses come in", async () => {
    const t = await createTenant({ password: PASSWORD });
    await guessFromMany(t.tenant, Date.now());
    const asked = await post("/signin", { tenant: t.tenant, password: PASSWORD }, { "cf-connecting-ip": freshAddress() });
    expect(asked.status).toBe(200);
    const page = await asked.text();
    expect(page).toContain('action="/signin/code"');
    const challenge = /name="challenge" value="([^"]+)"/.exec(page)![1]!;
    const code = await eventually("the sign-in code texted", async () => {
      const text = (await outbox(t)).find((m) => m.body.includes("sign-in code"));
      return text ? codeIn(text.body) : undefined;
    });
    const address = freshAddress();
    expect((await post("/signin/code", { tenant: t.tenant, challenge, code: code === "000000" ? "000001" : "000000" }, { "cf-connecting-ip": address })).status).toBe(401);
    const signedIn = await post("/signin/code", { tenant: t.tenant, challenge, code }, { "cf-connecting-ip": address });
    expect(signedIn.status).toBe(303);
    expect(cookieOf(signedIn, "svc_session")).toBeDefined();
    expect(cookieOf(signedIn, DEVICE_COOKIE)).toBeDefined();
  });
});

describe("the client's address", () => {
  const signInThrough = async (vars: Record<string, string>, tenant: string, address: string) => {
    const ctx = createExecutionContext();
    const request = new Request(`${BASE}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: BASE, "cf-connecting-ip": address },
      body: new URLSearchParams({ tenant, password: "guess" }),
    });
    const answer = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...vars }, ctx);
    await waitOnExecutionContext(ctx);
    return answer.status;
  };

  it("is the client's own word where the deployment does not trust CF-Connecting-IP: every guess counts under one unknown address", async () => {
    const t = await createTenant({ password: PASSWORD });
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNIN.address.free; i++) statuses.push(await signInThrough({ TRUST_CF_CONNECTING_IP: "off" }, t.tenant, freshAddress()));
    expect(statuses).toEqual([...Array(SIGNIN.address.free).fill(401), 429]);
  });

  it("is read from CF-Connecting-IP where the deployment trusts it: each address has its own failures", async () => {
    const t = await createTenant({ password: PASSWORD });
    const statuses: number[] = [];
    for (let i = 0; i <= SIGNIN.address.free; i++) statuses.push(await signInThrough({ TRUST_CF_CONNECTING_IP: "on" }, t.tenant, freshAddress()));
    expect(statuses).toEqual(Array(SIGNIN.address.free + 1).fill(401));
  });
});

describe("grant confirmation", () => {
  async function offer(t: SandboxTenant): Promise<{ id: number; code: string }> {
    const answer = await api(session(t), "/api/v1/auditor/grants", { method: "POST", body: VIEWER });
    expect(answer.status).toBe(200);
    return { id: answer.body.request_id, code: codeIn((await outbox(t))[0]!.body) };
  }
  const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");
  const confirmAt = (t: SandboxTenant, id: number, code: string, at: number, address: string) => confirmGrant(env, t.tenant, id, { ...VIEWER, code }, new Date(at), address);
  const refusalOf = (work: Promise<unknown>) =>
    work.then(
      () => undefined,
      (error: unknown) => (error instanceof ApiError ? error : Promise.reject(error)),
    );

  it("ends a request after its wrong codes while the tenant's other request still confirms", async () => {
    const t = await createTenant();
    const first = await offer(t);
    const second = await offer(t);
    const address = { "cf-connecting-ip": freshAddress() };
    for (let i = 0; i < 5; i++) {
      const answer = await api(session(t), `/api/v1/auditor/grants/${first.id}/confirm`, { method: "POST", body: { ...VIEWER, code: wrongOf(first.code) }, headers: address });
      expect(answer.body.code).toBe("code_wrong");
    }
    const spent = await api(session(t), `/api/v1/auditor/grants/${first.id}/confirm`, { method: "POST", body: { ...VIEWER, code: first.code }, headers: address });
    expect(spent.status).toBe(403);
    expect(spent.body.code).toBe("too_many_attempts");
    const live = await api(session(t), `/api/v1/auditor/grants/${second.id}/confirm`, { method: "POST", body: { ...VIEWER, code: second.code }, headers: address });
    expect(live.status).toBe(200);
  });

  it("keeps no tenant-wide count: after many failures from other clients, a new request confirms", async () => {
    const t = await createTenant();
    for (let r = 0; r < 6; r++) {
      const request = await offer(t);
      const headers = { "cf-connecting-ip": freshAddress() };
      for (let i = 0; i < 5; i++) {
        const answer = await api(session(t), `/api/v1/auditor/grants/${request.id}/confirm`, { method: "POST", body: { ...VIEWER, code: wrongOf(request.code) }, headers });
        expect(answer.body.code).toBe("code_wrong");
      }
    }
    const request = await offer(t);
    const answer = await api(session(t), `/api/v1/auditor/grants/${request.id}/confirm`, { method: "POST", body: { ...VIEWER, code: request.code }, headers: { "cf-connecting-ip": freshAddress() } });
    expect(answer.status).toBe(200);
  });

  it("slows one client past its free failures: it waits before the code is checked, and the request is not spent", async () => {
    const t = await createTenant();
    const address = freshAddress();
    const t0 = Date.now();
    let failed = 0;
    while (failed < CONFIRM.address.free) {
      const request = await offer(t);
      for (let i = 0; i < 5 && failed < CONFIRM.address.free; i++, failed++) {
        expect((await refusalOf(confirmAt(t, request.id, wrongOf(request.code), t0 + failed, address)))?.code).toBe("code_wrong");
      }
    }
    const request = await offer(t);
    const refused = await refusalOf(confirmAt(t, request.id, request.code, t0 + failed, address));
    expect(refused).toMatchObject({ status: 429, code: "too_many_requests", retryAfterSeconds: 1 });
    // The refused attempt spent none of the request's five: it confirms from another client.
    for (let i = 0; i < 4; i++) expect((await refusalOf(confirmAt(t, request.id, wrongOf(request.code), t0 + failed + 1 + i, freshAddress())))?.code).toBe("code_wrong");
    expect(await refusalOf(confirmAt(t, request.id, request.code, t0 + failed + 10, freshAddress()))).toBeUndefined();
  });

  it("answers the API's refusal as problem+json 429 with Retry-After", async () => {
    const t = await createTenant();
    const headers = { "cf-connecting-ip": freshAddress() };
    let refusal: { status: number; body: any; headers: Headers } | undefined;
    for (let failed = 0; failed < 3 * CONFIRM.address.free && !refusal; ) {
      const request = await offer(t);
      for (let i = 0; i < 5 && !refusal; i++, failed++) {
        const answer = await api(session(t), `/api/v1/auditor/grants/${request.id}/confirm`, { method: "POST", body: { ...VIEWER, code: wrongOf(request.code) }, headers });
        if (answer.status === 429) refusal = answer;
        else expect(answer.body.code).toBe("code_wrong");
      }
    }
    expect(refusal!.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refusal!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refusal!.body.code).toBe("too_many_requests");
  });
});
