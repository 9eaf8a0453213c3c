/**
 * Secrets never reach the service's log. The flows that carry them (sign-up, sign-in with
 * a password and the device cookie it sets, bearer tokens and the session cookie on the API, a grant's texted code, a
 * wrong code, the grant token) run against the real service, whose whole output goes to
 * the log file global setup names; afterwards not one of those secrets is in it.
 */
import { readFileSync } from "node:fs";
import { expect, inject, it } from "vitest";

const baseUrl = inject("baseUrl");
const serverLog = inject("serverLog");
const VIEWER = { viewer_name: "Log Auditor", viewer_channel: "+15555550188" };

async function send(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { redirect: "manual", ...init });
}

async function json(path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const answer = await send(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  expect(answer.status, path).toBeLessThan(300);
  return answer.json();
}

it("holds no password, token, session or grant code of the flows that carry them", async () => {
  const password = "log-check " + crypto.randomUUID();
  const tenant = `logs-${Date.now().toString(36)}`;
  const signup = await json("/sandbox/tenants", { tenant, password });
  const secrets: string[] = [password, signup.session, signup.tokens.read_write, signup.tokens.read_only];

  const signin = await send("/signin", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
    body: new URLSearchParams({ tenant, password }).toString(),
  });
  expect(signin.status).toBe(303);
  const session = /svc_session=([^;]+)/.exec(signin.headers.get("set-cookie") ?? "")![1]!;
  const device = /svc_device=([^;]+)/.exec(signin.headers.get("set-cookie") ?? "")![1]!;
  secrets.push(session, device);
  const wrong = await send("/signin", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: baseUrl },
    body: new URLSearchParams({ tenant, password: `${password}-wrong` }).toString(),
  });
  expect(wrong.status).toBe(401);
  secrets.push(`${password}-wrong`);

  for (const token of [signup.tokens.read_write, signup.tokens.read_only]) {
    expect((await send("/api/v1/me", { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  }
  const sessionHeaders = { cookie: `svc_session=${session}`, origin: baseUrl };
  const offer = await json("/api/v1/auditor/grants", VIEWER, sessionHeaders);
  const outbox: any = await (await send(`/sandbox/tenants/${tenant}/outbox`)).json();
  const code = /\b(\d{6})\b/.exec(outbox.messages[0].body)![1]!;
  const wrongCode = code === "000000" ? "111111" : "000000";
  const refused = await send(`/api/v1/auditor/grants/${offer.request_id}/confirm`, {
    method: "POST",
    headers: { "content-type": "application/json", ...sessionHeaders },
    body: JSON.stringify({ ...VIEWER, code: wrongCode }),
  });
  expect(refused.status).toBe(403);
  const grant = await json(`/api/v1/auditor/grants/${offer.request_id}/confirm`, { ...VIEWER, code }, sessionHeaders);
  expect((await send("/api/v1/auditor/view", { headers: { authorization: `Bearer ${grant.token}` } })).status).toBe(200);
  secrets.push(grant.token);

  // wrangler writes its request lines as they finish: give the last ones a moment.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const log = readFileSync(serverLog, "utf8");
  expect(log).toContain("/api/v1/auditor/view");
  for (const secret of secrets) {
    // The secret part of a token is what must not leak; its key id is public.
    const hidden = secret.startsWith("lat.") ? secret.split(".")[2]! : secret;
    expect(log.includes(hidden), `a secret of ${hidden.length} characters is in ${serverLog}`).toBe(false);
  }
  // A six-digit code may occur by chance in a log of timings; next to the word "code" it must not.
  expect(log).not.toMatch(new RegExp(`code\\W{0,3}${code}`));
});
