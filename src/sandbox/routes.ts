/**
 * src/sandbox/ (entry: this file; link-pages.tsx is the stand-in of the aggregator's link
 * page): the sandbox surface. A face over the real path: may import any room below the
 * faces and the pages' frame; mounted by app.ts alone (.dependency-cruiser.cjs:
 * faces-stand-apart).
 */
/**
 * The sandbox surface (sandbox.md): stands in for the bank, the SMS carrier and the
 * person at the browser on a local or test deployment. 404 unless SANDBOX = "on".
 * Everything behind it is the real path: sign-up, sessions, tokens, queue, watcher.
 */
import { z } from "@hono/zod-openapi";
import { drizzle } from "drizzle-orm/d1";
import { Hono, type Context } from "hono";
import { randomSecret } from "../auth/crypto";
import { startSession } from "../auth/sessions";
import { signUp } from "../auth/signup";
import { findTenant, TENANT_SLUG } from "../auth/tenants";
import { mintToken } from "../auth/tokens";
import { ledgerOf, sandboxOn, type Env } from "../env";
import { ApiError, settle } from "../errors";
import { requireJsonBody } from "../http/json-body";
import { isoDateSchema } from "../endpoints/shared";
import { wellFormed } from "../input/control-characters";
import { subCentProblem } from "../input/numbers";
import { queueSandboxChanges } from "../providers/bank/sandbox";
import { institutionOf, requireSandboxLogin, sandboxItem, sandboxItemsOf, signSandboxWebhook } from "../providers/bank/sandbox-link";
import { sandboxMailTo } from "../providers/email/sandbox";
import { receiveBankWebhook } from "../banks/bank-hooks";
import { sandboxSpreadsheetOf } from "../providers/spreadsheet/sandbox";
import { carrierSignature } from "../providers/sms/carrier";
import { SANDBOX_CARRIER_AUTH_TOKEN, sandboxOutboxOf } from "../providers/sms/sandbox";
import { E164 } from "../providers/sms/types";
import { faceFor } from "../ledger/face";
import { receiveInboundSms } from "../messages/sms";
import { providerAccountSchema, providerTransactionSchema, removedTransactionSchema } from "../providers/bank/types";
import { TIERS } from "../tiers";

const newTenantBody = z.object({
  tenant: z.string().regex(TENANT_SLUG, "a slug of 3 to 40 characters: a-z, 0-9 and -"),
  business_name: z.string().min(1).max(200).optional(),
  owner_email: z.email().max(254).optional(),
  tier: z.enum(TIERS).default("paid"),
  visible_from: isoDateSchema.nullish(),
  phone: z.string().regex(E164, "an E.164 phone number").default("+15555550100"),
  sms: z.boolean().default(true),
  bank: z.boolean().default(true),
  password: z.string().min(8).max(200).optional(),
});

/**
 * A line delivered at the sandbox bank: what the aggregator may send, with the typed
 * values held to our own input rules, since a person or a test wrote them here: whole
 * cents (12.345 is refused, never rounded) and dates from 1900-01-01. The bank's text
 * (name, merchant) is taken as a bank would print it, control characters and all: it is
 * stored as received and made safe where it is shown.
 */
const sandboxTransactionSchema = providerTransactionSchema.extend({
  amount: providerTransactionSchema.shape.amount.superRefine((dollars, ctx) => {
    const problem = subCentProblem(dollars);
    if (problem) ctx.addIssue({ code: "custom", message: problem, params: { code: "sub_cent_amount" } });
  }),
  date: isoDateSchema,
  authorized_date: isoDateSchema.nullish(),
});

const bankChangesBody = z.object({
  /** A bank linked through the sandbox's link page; left out, the sandbox bank of the sign-up. */
  item_id: z.string().min(1).max(200).optional(),
  accounts: z.array(providerAccountSchema).max(1000).optional(),
  added: z.array(sandboxTransactionSchema).max(5000).optional(),
  modified: z.array(sandboxTransactionSchema).max(5000).optional(),
  removed: z.array(removedTransactionSchema).max(5000).optional(),
});

export const sandbox = new Hono<{ Bindings: Env }>();

sandbox.use("*", async (c, next) => {
  if (!sandboxOn(c.env)) throw ApiError.notFound("The sandbox is off on this deployment.");
  await next();
});
sandbox.use("*", requireJsonBody);

sandbox.post("/tenants", async (c) => {
  const body = parse(newTenantBody, jsonOf(await c.req.text()));
  const now = new Date();
  const password = body.password ?? randomSecret(18);
  await signUp(
    c.env,
    {
      tenant: body.tenant,
      businessName: body.business_name ?? body.tenant,
      tier: body.tier,
      password,
      ownerEmail: body.owner_email ?? null,
      phone: body.phone,
      smsEnabled: body.sms,
      visibleFrom: body.visible_from ?? null,
      termsAccepted: false,
      idempotencyKey: null,
    },
    new URL(c.req.url).origin,
    now,
  );
  if (body.bank) settle(await ledgerOf(c.env, body.tenant).connectBank("sandbox", ""));
  const session = await startSession(c.env.INDEX_DB, body.tenant, now);
  const readWrite = await mintToken(c.env.INDEX_DB, body.tenant, "sandbox read-write", "read_write", now);
  const readOnly = await mintToken(c.env.INDEX_DB, body.tenant, "sandbox read-only", "read_only", now);
  return c.json(
    { tenant: body.tenant, password, session: session.value, tokens: { read_write: readWrite.token, read_only: readOnly.token } },
    201,
  );
});

sandbox.post("/tenants/:tenant/bank", async (c) => {
  const tenant = c.req.param("tenant");
  const body = parse(bankChangesBody, jsonOf(await c.req.text()));
  if (!(await findTenant(c.env.INDEX_DB, tenant))) throw ApiError.notFound(`No sandbox tenant "${tenant}".`);
  if (body.item_id !== undefined) await itemOf(c.env, tenant, body.item_id);
  const queued = await queueSandboxChanges(drizzle(c.env.INDEX_DB), tenant, body, new Date().toISOString(), body.item_id ?? "");
  return c.json({ queued }, 202);
});

/** A bank linked through the sandbox's link page by this tenant, or a 404. */
async function itemOf(env: Env, tenant: string, itemId: string) {
  const item = await sandboxItem(env.INDEX_DB, itemId);
  if (!item || item.tenantId !== tenant || item.accessToken === null) throw ApiError.notFound(`Sandbox tenant "${tenant}" linked no item "${itemId}".`);
  return item;
}

sandbox.get("/tenants/:tenant/items", async (c) => {
  const tenant = c.req.param("tenant");
  if (!(await findTenant(c.env.INDEX_DB, tenant))) throw ApiError.notFound(`No sandbox tenant "${tenant}".`);
  const items = await sandboxItemsOf(c.env.INDEX_DB, tenant);
  return c.json({
    items: items.map((i) => ({
      item_id: i.itemId,
      institution_id: i.institutionId,
      institution: institutionOf(i.institutionId)?.name ?? null,
      accounts: (institutionOf(i.institutionId)?.accounts ?? []).map((a) => ({ ...a, account_id: `${i.itemId}-${a.account_id}` })),
      login_required: i.loginRequired,
      removed: i.removedAt !== null,
    })),
  });
});

const webhookBody = z.object({
  webhook_type: z.enum(["TRANSACTIONS", "ITEM"]).default("TRANSACTIONS"),
  webhook_code: z.string().regex(/^[A-Z_]{1,60}$/).default("SYNC_UPDATES_AVAILABLE"),
  /** For ITEM ERROR: the item's error code (`ITEM_LOGIN_REQUIRED`, …). */
  error_code: z.string().regex(/^[A-Z_]{1,60}$/).optional(),
});

/** The aggregator's webhook about a sandbox item, signed as the aggregator signs, through the webhook's own code (`POST /hooks/bank`). */
async function fireWebhook(env: Env, origin: string, itemId: string, hook: z.output<typeof webhookBody>) {
  const payload = {
    webhook_type: hook.webhook_type,
    webhook_code: hook.webhook_code,
    item_id: itemId,
    ...(hook.error_code ? { error: { error_type: "ITEM_ERROR", error_code: hook.error_code, error_message: `the sandbox bank says ${hook.error_code}` } } : {}),
    environment: "sandbox",
  };
  const body = JSON.stringify(payload);
  const now = new Date();
  return receiveBankWebhook(env, body, await signSandboxWebhook(body, now), origin, now);
}

sandbox.post("/tenants/:tenant/items/:item/webhook", async (c) => {
  const item = await itemOf(c.env, c.req.param("tenant"), c.req.param("item"));
  const hook = parse(webhookBody, jsonOf(await c.req.text()));
  return c.json(await fireWebhook(c.env, new URL(c.req.url).origin, item.itemId, hook), 202);
});

/** The sandbox bank asks its customer to sign in again (the aggregator's `/sandbox/item/reset_login`): its syncs are refused until update mode, and the webhook says so. */
sandbox.post("/tenants/:tenant/items/:item/reset-login", async (c) => {
  const item = await itemOf(c.env, c.req.param("tenant"), c.req.param("item"));
  await requireSandboxLogin(c.env.INDEX_DB, item.itemId);
  const hook = { webhook_type: "ITEM" as const, webhook_code: "ERROR", error_code: "ITEM_LOGIN_REQUIRED" };
  return c.json(await fireWebhook(c.env, new URL(c.req.url).origin, item.itemId, hook), 202);
});

sandbox.get("/tenants/:tenant/mail", async (c) => {
  const tenant = await findTenant(c.env.INDEX_DB, c.req.param("tenant"));
  if (!tenant) throw ApiError.notFound(`No sandbox tenant "${c.req.param("tenant")}".`);
  return c.json({ messages: tenant.ownerEmail === null ? [] : await sandboxMailTo(c.env.INDEX_DB, tenant.ownerEmail) });
});

sandbox.get("/tenants/:tenant/outbox", async (c) => {
  const tenant = c.req.param("tenant");
  if (!(await findTenant(c.env.INDEX_DB, tenant))) throw ApiError.notFound(`No sandbox tenant "${tenant}".`);
  return c.json({ messages: await sandboxOutboxOf(c.env.INDEX_DB, tenant) });
});

/** What pushes wrote to a sandbox spreadsheet, through the sandbox's stand-in of the spreadsheet API. */
sandbox.get("/tenants/:tenant/spreadsheets/:spreadsheet", async (c) => {
  const tenant = c.req.param("tenant");
  if (!(await findTenant(c.env.INDEX_DB, tenant))) throw ApiError.notFound(`No sandbox tenant "${tenant}".`);
  return c.json({ spreadsheet_id: c.req.param("spreadsheet"), sheets: await sandboxSpreadsheetOf(c.env.INDEX_DB, tenant, c.req.param("spreadsheet")) });
});

/**
 * The customer's text as the carrier would deliver it: form-encoded UTF-8, so control
 * characters can arrive (they are stored as received, like bank text) and a lone
 * surrogate cannot (refused, as our own input).
 */
const inboundSmsBody = z.object({
  body: z
    .string()
    .min(1)
    .max(1600)
    .refine((text) => wellFormed(text) === text, { message: "contains a lone surrogate, which no carrier's UTF-8 can carry", params: { code: "lone_surrogate" } }),
});

/** The carrier's webhook call for a text from `from`, signed as the carrier signs it, through the webhook's own code. */
async function textIn(c: Context<{ Bindings: Env }>, url: string, from: string, text: string) {
  const params = {
    AccountSid: "ACsandbox",
    MessageSid: `SM${randomSecret(16).replace(/[^A-Za-z0-9]/g, "").slice(0, 32)}`,
    From: from,
    To: c.env.SMS_FROM || "+15555550199",
    Body: text,
  };
  const outcome = await receiveInboundSms(c.env, url, params, await carrierSignature(SANDBOX_CARRIER_AUTH_TOKEN, url, params));
  return { message_sid: params.MessageSid, landed_in: outcome.landedIn, reply: outcome.reply };
}

/** The customer texting in to one tenant: the webhook's address names the tenant (`?tenant=`), since sandbox tenants share a default phone. */
sandbox.post("/tenants/:tenant/inbound-sms", async (c) => {
  const tenant = await findTenant(c.env.INDEX_DB, c.req.param("tenant"));
  if (!tenant) throw ApiError.notFound(`No sandbox tenant "${c.req.param("tenant")}".`);
  const body = parse(inboundSmsBody, jsonOf(await c.req.text()));
  const texted = await textIn(c, `${new URL(c.req.url).origin}/hooks/sms?tenant=${encodeURIComponent(tenant.id)}`, tenant.phone, body.body);
  return c.json({ received: true, ...texted }, 202);
});

/**
 * A phone texting in, as the carrier delivers it: the webhook finds the tenant by the
 * sender's phone (and, where tenants share it, by the name the text gives). The answer
 * says where it landed, or carries the question the carrier would text back.
 */
sandbox.post("/inbound-sms", async (c) => {
  const body = parse(inboundSmsBody.extend({ from: z.string().regex(E164, "an E.164 phone number") }), jsonOf(await c.req.text()));
  const texted = await textIn(c, `${new URL(c.req.url).origin}/hooks/sms`, body.from, body.body);
  return c.json({ received: texted.landed_in !== null, ...texted }, 202);
});

/** The body's JSON; requireJsonBody has already refused a body that does not parse. */
function jsonOf(text: string): unknown {
  return text.trim() === "" ? {} : JSON.parse(text);
}

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw ApiError.validation("body", result.error);
  return result.data;
}
