/**
 * The browser suites' one way to start Debian's chromium (through playwright-core), and a
 * record of each context's requests: a request that fails is printed when it fails, and
 * when a test fails the requests still open are printed with it, so a page that never
 * finished loading says which of its parts it waited on.
 */
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Request } from "playwright-core";
import { beforeEach } from "vitest";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
  });
}

const open = new Map<Request, string>();

/** A new context of `browser` whose requests are recorded. */
export async function newContext(browser: Browser, options?: BrowserContextOptions): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  context.on("request", (request) => open.set(request, `${new Date().toISOString()} ${request.method()} ${request.url()}`));
  context.on("requestfinished", (request) => open.delete(request));
  context.on("requestfailed", (request) => {
    const since = open.get(request);
    open.delete(request);
    console.error(`browser request failed at ${new Date().toISOString()} (sent ${since ?? "?"}): ${request.failure()?.errorText ?? "no reason given"}`);
  });
  return context;
}

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => {
    if (open.size > 0) console.error(`browser requests open when the test failed:\n  ${[...open.values()].join("\n  ")}`);
  });
});

/**
 * `fetch` for the suites' own calls to the service (seeding through the sandbox, reading the
 * API), sent again when wrangler dev's proxy answers that the local runtime restarted under
 * the request: it retries a GET itself but answers any other method 503 with this text
 * (node_modules/wrangler/wrangler-dist/ProxyWorker.js). Seen once in CI on a sandbox
 * sign-up sent beside another; the service never says it.
 */
export async function fetchService(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(url, init);
    if (response.status !== 503 || attempt === 3) return response;
    const text = await response.clone().text();
    if (!text.startsWith("Your worker restarted mid-request.")) return response;
    console.error(`${init?.method ?? "GET"} ${url}: the local runtime restarted under it; sent again`);
  }
}
