/**
 * The direction of the code's dependencies, checked by `npm test` (`npm run check:deps`).
 * The domain (the ledger, the index) is imported by the rest and imports none of it; the
 * faces (endpoints, pages, the tool face, the sandbox) sit on top; nothing imports in a
 * circle, types included.
 */
const FACES = "^src/(app\\.ts|worker\\.ts|endpoints|pages|mcp|sandbox|docs)(/|$)";

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
