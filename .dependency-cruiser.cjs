/**
 * The direction of the code's dependencies, checked by `npm test` (`npm run check:deps`).
 * Each folder of src/ says at its entry module what it owns and what it may import
 * (README, "Where things are"); these rules are those sentences, checked:
 * - the ground floor: input/ (how strictly values are read) and the shared modules at the
 *   top of src/ (clock.ts, tiers.ts, error-catalog.ts) import nothing of the service's rooms;
 * - the domain: the ledger (ledger/) and the cross-tenant index (index-db/) are imported by
 *   the rest and import none of it;
 * - the adapters (providers/) and the plumbing (http/, limits/) know nothing of the product
 *   above them;
 * - the queue's runners (watcher/, cron/, and the tail they end with) run from the job
 *   queue's consumer and the worker's entry points, never from a request;
 * - the faces (endpoints, pages, the tool face, the sandbox, /docs) sit on top;
 * - nothing imports in a circle, types included.
 */
const FACES = "^src/(app\\.ts|worker\\.ts|endpoints|pages|mcp|sandbox|docs)(/|$)";
/** The modules at the top of src/ that any room may import: time, tiers, the refusals' catalog. */
const GROUND = ["^src/clock\\.ts$", "^src/tiers\\.ts$", "^src/error-catalog\\.ts$"];

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "An import cycle (type-only imports count): give the shared part a home of its own.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "production-stands-alone",
      comment: "The service never imports its tests, its benchmark or their support.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(test|bench|scripts)/" },
    },
    {
      name: "ledger-is-the-domain",
      comment: "The tenant's ledger knows nothing of HTTP, D1 or the Worker: it takes a database handle and plain values.",
      severity: "error",
      from: { path: "^src/ledger/" },
      to: { path: "^src/", pathNot: ["^src/ledger/", "^src/input/", "^src/clock\\.ts$", "^src/tiers\\.ts$", "^src/providers/bank/types\\.ts$", "^migrations/"] },
    },
    {
      name: "index-is-the-domain",
      comment: "The cross-tenant index (D1) is read and written by the rest; it imports none of it.",
      severity: "error",
      from: { path: "^src/index-db/" },
      to: { path: "^src/", pathNot: ["^src/index-db/", "^src/clock\\.ts$", "^src/tiers\\.ts$"] },
    },
    {
      name: "input-stands-alone",
      comment: "How strictly a value is read (input/) depends on nothing of the service: the ledger and every face share it.",
      severity: "error",
      from: { path: "^src/input/" },
      to: { path: "^src/", pathNot: ["^src/input/"] },
    },
    {
      name: "ground-floor-stands-alone",
      comment: "clock.ts, tiers.ts and error-catalog.ts are read by every room and import none of them.",
      severity: "error",
      from: { path: GROUND },
      to: { path: "^src/", pathNot: GROUND },
    },
    {
      name: "http-is-plumbing",
      comment: "The guards every request passes (http/) know bodies, headers and the problem answer, nothing of the product.",
      severity: "error",
      from: { path: "^src/http/" },
      to: { path: "^src/", pathNot: ["^src/http/", "^src/input/", "^src/errors\\.ts$", ...GROUND] },
    },
    {
      name: "limits-are-plumbing",
      comment: "Rate and attempt limits (limits/) count calls; they read the bindings and hash keys, and know nothing of the product.",
      severity: "error",
      from: { path: "^src/limits/" },
      to: { path: "^src/", pathNot: ["^src/limits/", "^src/env\\.ts$", "^src/errors\\.ts$", "^src/auth/crypto\\.ts$", ...GROUND] },
    },
    {
      name: "providers-are-adapters",
      comment:
        "An outside party's adapter (providers/) speaks its protocol and nothing else: the bindings, the index (where the sandbox's stand-ins keep their state), the shared crypto and the tenant record; never the ledger, a job or a face.",
      severity: "error",
      from: { path: "^src/providers/" },
      to: {
        path: "^src/",
        pathNot: ["^src/providers/", "^src/env\\.ts$", "^src/index-db/", "^src/auth/crypto\\.ts$", "^src/auth/tenants\\.ts$", "^src/input/", ...GROUND],
      },
    },
    {
      name: "runners-run-from-the-queue",
      comment: "The sync watcher and the daily run are the queue's jobs: only the job queue's consumer (and the worker's scheduled entry, for cron/) starts them.",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/watcher/", "^src/cron/", "^src/jobs/consumer\\.ts$", "^src/worker\\.ts$"] },
      to: { path: ["^src/watcher/", "^src/cron/"] },
    },
    {
      name: "consumer-is-an-entry",
      comment: "The job queue's consumer is an entry point (the worker's `queue`): nothing else imports it; a job's shape is in jobs/job.ts.",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/worker\\.ts$", "^src/jobs/"] },
      to: { path: "^src/jobs/consumer\\.ts$" },
    },
    {
      name: "tail-after-the-books",
      comment: "The tail (tail/) is asked after a sync (watcher/) and in the daily batch (cron/), never from a request.",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/tail/", "^src/watcher/", "^src/cron/"] },
      to: { path: "^src/tail/" },
    },
    {
      name: "faces-stand-apart",
      comment: "The tool face (mcp/), the sandbox surface (sandbox/) and /docs are mounted by app.ts alone; the sandbox may reuse the pages' frame.",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/app\\.ts$", "^src/(mcp|sandbox|docs)/"] },
      to: { path: "^src/(mcp|sandbox|docs)/" },
    },
    {
      name: "faces-on-top",
      comment: "Only the faces and the entry points import a face; a resource's schema (the shape of its data) is for anyone handling that data.",
      severity: "error",
      from: { pathNot: FACES },
      to: { path: FACES, pathNot: "^src/endpoints/[^/]+/schema\\.ts$" },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "\\.test\\.tsx?$" },
  },
};
