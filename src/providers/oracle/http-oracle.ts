/**
 * The oracle: an outside workflow's structured P&L report, fetched over HTTPS for the
 * daily parity run. The answer is returned as parsed JSON; whether it is the structured
 * report is the caller's check.
 */
import { safeJson, withTimeout } from "../http";

export class OracleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OracleError";
  }
}

export interface OracleSourceRef {
  url: string;
  bearerSecret: string | null;
}

export async function fetchOracleReport(source: OracleSourceRef, options: { fetch?: typeof fetch; timeoutMs?: number } = {}): Promise<unknown> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await withTimeout(options.timeoutMs ?? 20_000, (signal) =>
      doFetch(source.url, {
        headers: { accept: "application/json", ...(source.bearerSecret ? { authorization: `Bearer ${source.bearerSecret}` } : {}) },
        signal,
      }),
    );
  } catch (cause) {
    throw new OracleError(`the oracle could not be reached: ${String(cause)}`);
  }
  const text = await response.text();
  if (!response.ok) throw new OracleError(`the oracle answered HTTP ${response.status}`);
  const body = safeJson(text);
  if (body === undefined) throw new OracleError("the oracle's answer is not JSON (a rendered card?)");
  return body;
}
