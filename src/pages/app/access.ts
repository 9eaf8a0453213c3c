/**
 * Who may reach a workspace page, by the API's own credential rules (CREDENTIAL_RULES):
 * a page that reads is `read`, an action is `write`, what only the owner does is `session`,
 * so one table governs the pages and the API, roles included (a viewer's action is refused
 * as the API refuses it, `role_refused`, and a viewer's pages offer no form that writes).
 * The credential is resolved as the API resolves it; a browser without a live session is
 * sent to /signin. An action made with a session must come from this origin
 * (checkRule's same-origin check: with the SameSite=Lax cookie, the pages' defence
 * against a forged form).
 */
import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { z } from "zod";
import { checkRule, resolveCaller, ruleRefusal, type Caller, type CredentialRule } from "../../auth/caller";
import { findLiveSession, SESSION_COOKIE } from "../../auth/sessions";
import { ledgerOf, type Env } from "../../env";
import { ApiError } from "../../errors";
import { faceFor, type Face } from "../../ledger/face";
import type { TenantLedger } from "../../ledger/tenant-ledger";
import { limitCredential } from "../../limits/rate-limit";

export interface Workspace {
  caller: Caller;
  /** The caller's tenant's ledger (its Durable Object). */
  ledger: DurableObjectStub<TenantLedger>;
  /** What the caller's credential lets it see of the vault. */
  face: Face;
  now: Date;
  /**
   * Whether the caller passes the `write` rule (not a viewer, not a read-only token): the
   * pages offer the forms that change the books only then. The actions check the rule
   * themselves all the same.
   */
  writes: boolean;
}

export type WorkspaceEnv = { Bindings: Env; Variables: { workspace: Workspace } };
export type WorkspaceContext = Context<WorkspaceEnv>;

/** Whether the request was made by htmx, which wants a fragment of the page in answer. */
export function fromHtmx(c: Context): boolean {
  return c.req.header("hx-request") === "true";
}

/**
 * Where a browser whose session reaches nothing goes (htmx follows the header with a full
 * navigation): the sign-in page, or for a person whose seat in the session's business was
 * revoked, the practice dashboard, which lists the seats they still hold.
 */
async function away(c: Context<WorkspaceEnv>, now: Date): Promise<Response> {
  const value = getCookie(c, SESSION_COOKIE);
  const session = value === undefined ? undefined : await findLiveSession(c.env.INDEX_DB, value, now);
  const to = session?.personId ? "/app/practice" : "/signin";
  if (fromHtmx(c)) return c.body(null, 200, { "hx-redirect": to });
  return c.redirect(to, 303);
}

export function access(rule: CredentialRule): MiddlewareHandler<WorkspaceEnv> {
  return async (c, next) => {
    const now = new Date();
    let caller: Caller;
    try {
      caller = await resolveCaller(c.req.raw, c.env.INDEX_DB, now);
    } catch (error) {
      if (error instanceof ApiError && (error.code === "credential_missing" || error.code === "credential_refused")) return away(c, now);
      throw error;
    }
    await limitCredential(c.env, caller.rateKey);
    checkRule(caller, rule, c.req.raw, now);
    c.set("workspace", { caller, ledger: ledgerOf(c.env, caller.tenant.id), face: faceFor(caller.tenant, now), now, writes: ruleRefusal(caller, "write", now) === null });
    await next();
  };
}

/** A page's query read strictly, as the API reads its own: a refused value is a 400 naming it. */
export function readQuery<T extends z.ZodType>(c: Context, schema: T): z.output<T> {
  const parsed = schema.safeParse(c.req.query());
  if (!parsed.success) throw ApiError.validation("query", parsed.error);
  return parsed.data;
}
