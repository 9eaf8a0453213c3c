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
