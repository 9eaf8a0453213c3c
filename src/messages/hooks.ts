/** The SMS carrier's inbound webhook, `POST /hooks/sms` (form-encoded, signed by the carrier). */
import { Hono } from "hono";
import type { Env } from "../env";
import { formOf } from "../http/form-body";
import { SIGNATURE_HEADER } from "../providers/sms/carrier";
import { receiveInboundSms } from "./sms";

export const hooks = new Hono<{ Bindings: Env }>();

hooks.post("/sms", async (c) => {
  const form = await formOf(c);
  const params = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === "string"));
  await receiveInboundSms(c.env, c.req.url, params, c.req.header(SIGNATURE_HEADER) ?? null);
  // The carrier reads the answer as instructions: an empty one sends nothing back.
  return c.body('<?xml version="1.0" encoding="UTF-8"?><Response></Response>', 200, { "content-type": "text/xml; charset=utf-8" });
});
