/**
 * The instrumented Worker's two routes, beside the sandbox surface: a read's in-object cost
 * (`npm run bench`) and the ledger's invariants (`npm run soak`).
 */
import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { findTenant } from "../../src/auth/tenants";
import type { Env } from "../../src/env";
import { ApiError, problemResponse, settle } from "../../src/errors";
import { faceFor } from "../../src/ledger/face";
import type { InstrumentedTenantLedger } from "./instrumented-ledger";
import { IN_OBJECT_READS } from "./in-object-cost";

const inObjectBody = z.object({
  read: z.enum(IN_OBJECT_READS),
  args: z
    .object({
      filter: z
        .object({
          from: z.string().optional(),
          to: z.string().optional(),
          cat: z.string().optional(),
          q: z.string().optional(),
          minCents: z.number().int().min(0).optional(),
          maxCents: z.number().int().min(0).optional(),
          engine: z.enum(["human", "rule", "model", "tail", "none"]).optional(),
        })
        .optional(),
      rule: z
        .object({ rule_key: z.string(), match_kind: z.enum(["description_exact", "description_regex", "amount_sign"]), match_value: z.string(), category: z.string() })
        .optional(),
      page: z.number().int().min(1).optional(),
      perPage: z.number().int().min(1).max(100).optional(),
      asOf: z.string().optional(),
      days: z.number().int().min(1).max(365).optional(),
    })
    .default({}),
  iterations: z.number().int().min(1).max(10_000).default(50),
});

export const instrumented = new Hono<{ Bindings: Env }>();
instrumented.onError((error) => {
  const problem = error instanceof ApiError ? error : new ApiError("internal_error", "An unexpected fault; nothing internal is named.");
  if (!(error instanceof ApiError)) console.error(error);
  return problemResponse(problem.toProblem());
});

async function ledgerOfTenant(env: Env, slug: string) {
  const tenant = await findTenant(env.INDEX_DB, slug);
  if (!tenant) throw ApiError.notFound(`No sandbox tenant "${slug}".`);
  const ledger = env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(tenant.id)) as unknown as DurableObjectStub<InstrumentedTenantLedger>;
  return { tenant, ledger };
}

/** A read's domain code timed inside the tenant's object. */
instrumented.post("/sandbox/tenants/:tenant/in-object-cost", async (c) => {
  const { tenant, ledger } = await ledgerOfTenant(c.env, c.req.param("tenant"));
  const parsed = inObjectBody.safeParse(await c.req.json().catch(() => null));
  if (!parsed.success) throw ApiError.validation("body", parsed.error);
  const body = parsed.data;
  const ms = settle(await ledger.inObjectCost(faceFor(tenant), body.read, body.args, body.iterations));
  return c.json({ read: body.read, ms_per_call: ms, iterations: body.iterations });
});

/** The ledger's invariants checked over the whole tenant: an empty list is a healthy ledger. */
instrumented.get("/sandbox/tenants/:tenant/invariants", async (c) => {
  const { ledger } = await ledgerOfTenant(c.env, c.req.param("tenant"));
  return c.json({ broken: settle(await ledger.brokenInvariants()) });
});
