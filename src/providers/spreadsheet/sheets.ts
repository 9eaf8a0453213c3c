/**
 * The spreadsheet adapter: the common spreadsheet API's values endpoints (v4), over HTTP.
 * A push is a resync: the sheet is cleared, then the header and the books are appended in
 * batches. Repeating a push gives the same sheet, which is what at-least-once delivery needs.
 * Each call carries an OAuth access token from the target's token source; a call the API
 * answers 401 (the token expired or was revoked early) is made once more with a fresh one.
 */
import { endpoint, safeJson, withTimeout } from "../http";

export const SHEETS_API_BASE_URL = "https://sheets.googleapis.com";

export type Cell = string | number;

export class SpreadsheetError extends Error {
  /** True when trying again later may succeed (the network, a 429 or a 5xx); false for a refusal. */
  readonly retryable: boolean;
  constructor(message: string, retryable: boolean) {
    super(message);
    this.name = "SpreadsheetError";
    this.retryable = retryable;
  }
}

/** Where a call's access token comes from. */
export interface AccessTokenSource {
  /** A token believed good (the one kept, or a fresh one when none is kept or it has expired). */
  token(): Promise<string>;
  /** A fresh token, after the API refused the last one. */
  refreshed(): Promise<string>;
}

export interface SheetTarget {
  spreadsheetId: string;
  sheet: string;
  access: AccessTokenSource;
}

export interface SheetsOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** `'My Sheet'!A:Z`: the sheet name quoted, its quotes doubled. */
export function a1Range(sheet: string, cells: string): string {
  return `'${sheet.replaceAll("'", "''")}'!${cells}`;
}

export class SheetsClient {
  private readonly baseUrl: string;
  private readonly doFetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(
    private readonly target: SheetTarget,
    options: SheetsOptions = {},
  ) {
    this.baseUrl = options.baseUrl || SHEETS_API_BASE_URL;
    this.doFetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Empties every cell of the sheet (its formatting stays). */
  async clear(): Promise<void> {
    await this.call(`${encodeURIComponent(a1Range(this.target.sheet, "A:Z"))}:clear`, {});
  }

  /** Appends rows below the sheet's last row; returns how many rows the API says it wrote. */
  async append(rows: Cell[][]): Promise<number> {
    const range = a1Range(this.target.sheet, "A1");
    const answer = await this.call(`${encodeURIComponent(range)}:append?valueInputOption=RAW&insertDataOption=INSERT_ROWS`, {
      range,
      majorDimension: "ROWS",
      values: rows,
    });
    const updated = (answer as { updates?: { updatedRows?: unknown } } | undefined)?.updates?.updatedRows;
    if (typeof updated !== "number") throw new SpreadsheetError("the spreadsheet API's answer did not say how many rows it wrote", true);
    return updated;
  }

  private async call(valuesPath: string, body: unknown): Promise<unknown> {
    const url = endpoint(this.baseUrl, `v4/spreadsheets/${encodeURIComponent(this.target.spreadsheetId)}/values/${valuesPath}`);
    let response = await this.send(url, body, await this.target.access.token());
    if (response.status === 401) {
      await response.body?.cancel();
      response = await this.send(url, body, await this.target.access.refreshed());
    }
    const text = await response.text();
    if (!response.ok) {
      const message = (safeJson(text) as { error?: { message?: unknown } } | undefined)?.error?.message;
      const words = typeof message === "string" ? `: ${message.slice(0, 200)}` : "";
      throw new SpreadsheetError(`the spreadsheet API answered HTTP ${response.status}${words}`, response.status === 429 || response.status >= 500);
    }
    return safeJson(text);
  }

  private async send(url: URL, body: unknown, accessToken: string): Promise<Response> {
    try {
      return await withTimeout(this.timeoutMs, (signal) =>
        this.doFetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify(body),
          signal,
        }),
      );
    } catch (cause) {
      throw new SpreadsheetError(`the spreadsheet API could not be reached: ${String(cause)}`, true);
    }
  }
}
