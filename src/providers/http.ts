/**
 * src/providers/ (no single entry; each party's folder has an index.ts that picks the real
 * adapter or the sandbox's stand-in, and this file holds what they share): outside parties
 * behind adapters, one folder each (bank/, email/, model/, oracle/, sms/, spreadsheet/),
 * each with its real HTTP client. May import env.ts, the index (where the stand-ins keep
 * their state), auth/crypto.ts and auth/tenants.ts, input/ and the ground floor; never the
 * ledger, a job or a face (.dependency-cruiser.cjs: providers-are-adapters). Imported by
 * whoever talks to that party; the ledger reads the bank feed's types.
 */
/** Small helpers the outside-party adapters share. */

/** `path` under a base address, keeping any path the base has (`https://host/v1`). */
export function endpoint(baseUrl: string, path: string): URL {
  return new URL(path, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
}

/** The parsed JSON of a body, or undefined when it is not JSON. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Runs a call that is aborted, and given up on, once `ms` have passed, whether or not it heeds the signal. */
export async function withTimeout<T>(ms: number, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([call(controller.signal), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
