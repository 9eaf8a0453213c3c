/**
 * The instrumented Worker: the service as deployed, whose tenants' objects are the
 * instrumented class, with its two inspection routes beside the sandbox surface. The
 * benchmark, the profile and the soak serve it (`startLocalService({ instrumented: true })`:
 * wrangler dev with this file as its entry and wrangler.toml as its configuration).
 */
import type { Env } from "../../src/env";
import type { Job } from "../../src/jobs/job";
import worker from "../../src/worker";
import { instrumented } from "./routes";

export { AttemptLimiter } from "../../src/limits/attempt-limiter";
export { InstrumentedTenantLedger as TenantLedger } from "./instrumented-ledger";

const INSPECTIONS = /^\/sandbox\/tenants\/[^/]+\/(in-object-cost|invariants)$/;

export default {
  ...worker,
  fetch(request, env, ctx) {
    const inspection = env.SANDBOX === "on" && INSPECTIONS.test(new URL(request.url).pathname);
    return inspection ? instrumented.fetch(request, env, ctx) : worker.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env, Job>;
