/**
 * src/banks/ (no single entry; app.ts mounts this file, the pages call linking.ts, the
 * watcher and cron bank-tokens.ts): the tenant's banks as the aggregator knows them:
 * linking one (linking.ts), the aggregator's webhooks (bank-hooks.ts, at /hooks/bank
 * here), the access tokens encrypted at rest and their key's rotation (bank-tokens.ts).
 * May import auth/, the ledger (through its object, and its connection types), the
 * index, the bank adapters (providers/bank/), env.ts and errors.ts. Imported by the pages,
 * the sandbox, the watcher and cron; never imports a face.
 */
/** The aggregator's webhooks, `POST /hooks/bank` (JSON, signed by the aggregator: ./bank-hooks.ts). */
import { Hono } from "hono";
import type { Env } from "../env";
import { VERIFICATION_HEADER } from "../providers/bank/webhook-signature";
import { receiveBankWebhook } from "./bank-hooks";

export const bankHooks = new Hono<{ Bindings: Env }>();

bankHooks.post("/bank", async (c) => {
  // The signature covers the body's exact bytes: it is read as text, never re-serialised.
  const body = await c.req.text();
  const answer = await receiveBankWebhook(c.env, body, c.req.header(VERIFICATION_HEADER) ?? null, new URL(c.req.url).origin, new Date());
  return c.json(answer);
});
