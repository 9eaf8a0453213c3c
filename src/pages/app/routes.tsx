/**
 * The workspace at /app: Review, Transactions, Rules, Reports, Settings and People, for the
 * tenant's people in a browser, and the practice dashboard of a person with seats in
 * several businesses. Every page is server-rendered and works with JavaScript
 * off; each reads and writes through the tenant's object as the API does, under the same
 * credential rules (access.ts). A refusal is a page in the service's words, never a
 * problem document.
 */
import { Hono } from "hono";
import { ApiError } from "../../errors";
import { fromHtmx, type WorkspaceEnv } from "./access";
import { assets } from "./assets";
import { RefusalPage } from "./layout";
import { peoplePages } from "./people";
import { practice } from "./practice";
import { reports } from "./reports";
import { review } from "./review";
import { rules } from "./rules";
import { settings } from "./settings";
import { transactions } from "./transactions";

export const workspace = new Hono<WorkspaceEnv>();

workspace.route("/assets", assets);
workspace.get("/", (c) => c.redirect("/app/review", 303));
workspace.route("/review", review);
workspace.route("/transactions", transactions);
workspace.route("/rules", rules);
workspace.route("/reports", reports);
workspace.route("/settings", settings);
workspace.route("/people", peoplePages);
workspace.route("/practice", practice);
workspace.all("*", (c) => {
  throw ApiError.notFound(`Nothing is served at ${new URL(c.req.url).pathname}.`);
});

const TITLES: Partial<Record<number, string>> = {
  400: "That could not be read",
  403: "Not allowed",
  404: "Not found",
  409: "Refused",
  413: "Too large",
  429: "Too many requests",
};

workspace.onError((error, c) => {
  if (!(error instanceof ApiError)) {
    console.error(`unhandled fault on ${c.req.method} ${new URL(c.req.url).pathname}:`, error);
    const words = "Something went wrong on our side. It was logged; try again, and report the time of the request if it persists.";
    return c.html(<RefusalPage status={500} title="Something went wrong" detail={words} />, 500);
  }
  const headers: Record<string, string> = error.retryAfterSeconds !== undefined ? { "retry-after": String(error.retryAfterSeconds) } : {};
  const detail = error.errors?.length ? `${error.detail} ${error.errors.map((e) => `${e.field}: ${e.message}.`).join(" ")}` : error.detail;
  const status = error.status as 400;
  if (fromHtmx(c)) return c.html(<p class="error" role="alert">{detail}</p>, status, headers);
  return c.html(<RefusalPage status={error.status} title={TITLES[error.status] ?? "Something went wrong"} detail={detail} />, status, headers);
});
