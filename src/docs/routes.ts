/**
 * src/docs/ (entry: this file): the pages that document the API, /docs and /docs/patterns.
 * A face that imports nothing of the service (the OpenAPI document it shows is app.ts's);
 * mounted by app.ts alone (.dependency-cruiser.cjs: faces-stand-apart).
 */
/**
 * `/docs`: a browsable API reference for /openapi.json (Swagger UI, served from this Worker:
 * the page fetches nothing from elsewhere), and `/docs/patterns`, the rule pattern syntax
 * the API reference points to (docs/patterns.md as it is). Public, like the document.
 */
import { Hono } from "hono";
import viewerCss from "swagger-ui-dist/swagger-ui.css";
import viewerJs from "swagger-ui-dist/swagger-ui-bundle.js";
import patternsPage from "../../docs/patterns.md";

export const docs = new Hono();

// The viewer's files change only with the package version: let browsers keep them a day.
const CACHE = { "cache-control": "public, max-age=86400" };

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ledger Service API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true, tryItOutEnabled: false });`;

docs.get("/", (c) =>
  c.html(PAGE, 200, {
    // Everything the page loads is this origin's own.
    "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'",
  }),
);
docs.get("/swagger-ui.css", (c) => c.body(viewerCss, 200, { "content-type": "text/css; charset=utf-8", ...CACHE }));
docs.get("/swagger-ui-bundle.js", (c) => c.body(viewerJs, 200, { "content-type": "text/javascript; charset=utf-8", ...CACHE }));
docs.get("/init.js", (c) => c.body(INIT, 200, { "content-type": "text/javascript; charset=utf-8" }));
docs.get("/patterns", (c) => c.body(patternsPage, 200, { "content-type": "text/markdown; charset=utf-8" }));
