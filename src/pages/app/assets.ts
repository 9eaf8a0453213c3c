/**
 * The workspace's client files, served by the Worker itself (nothing is loaded from
 * elsewhere): the stylesheet, the keyboard script and htmx, pinned in package.json.
 */
import { Hono } from "hono";
import htmx from "htmx.org/dist/htmx.min.js";
import workspaceCss from "./client/workspace.css";
import workspaceJs from "./client/workspace.js";

export const assets = new Hono();

// htmx changes only with its pinned version; the workspace's own files with each deployment.
const PINNED = { "cache-control": "public, max-age=86400" };
const OWN = { "cache-control": "no-cache" };

assets.get("/htmx.min.js", (c) => c.body(htmx, 200, { "content-type": "text/javascript; charset=utf-8", ...PINNED }));
assets.get("/workspace.js", (c) => c.body(workspaceJs, 200, { "content-type": "text/javascript; charset=utf-8", ...OWN }));
assets.get("/workspace.css", (c) => c.body(workspaceCss, 200, { "content-type": "text/css; charset=utf-8", ...OWN }));
