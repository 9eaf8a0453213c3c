/**
 * src/messages/ (no single entry; app.ts mounts this file, the pages and the job queue call
 * sms.ts and notices.ts): the tenant's texts: in (the carrier's signed webhook, here;
 * which tenant a shared phone's text is for, routing.ts) and out (released drafts, sms.ts;
 * notices texted from the job queue, notices.ts). May import the ledger (through its
 * object: the thread lives there), auth/ (the tenant record), the index, the SMS adapter,
 * http/ (the form body), jobs/job.ts, env.ts and errors.ts. Imported by the faces, cron/ and
 * the job queue's consumer; never imports a face.
 */
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
  const outcome = await receiveInboundSms(c.env, c.req.url, params, c.req.header(SIGNATURE_HEADER) ?? null);
  return c.body(twiml(outcome.reply), 200, { "content-type": "text/xml; charset=utf-8" });
});

/**
 * The carrier reads the answer as instructions: an empty one sends nothing back; a
 * `<Message>` is texted back to the sender (the question when a shared phone's text names
 * no one business).
 */
function twiml(reply: string | null): string {
  const message = reply === null ? "" : `<Message>${escapeXml(reply)}</Message>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${message}</Response>`;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}
