/**
 * The one error type. Anything thrown as an ApiError reaches the client as
 * `application/problem+json` (RFC 9457) through `app.onError`; anything else is a
 * 500 that names no internals.
 */
import type { ZodError } from "zod";

export interface FieldError {
  /** Where the value was: `body.rules.3.category`, `query.per_page`, `path.side`. */
  field: string;
  message: string;
  code: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: FieldError[];
  /** A bulk verb stopped by a ledger refusal: the refused row's index in the request (0-based). */
  row?: number;
  /** A bulk verb stopped by a ledger refusal: the rows created before it, in order. */
  created?: unknown[];
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    /** A stable machine word, e.g. `not_found`, `read_only_token`, `nothing_connected`. */
    readonly code: string,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Extra problem members (the bulk verbs' `row` and `created`). */
    readonly members: Pick<Problem, "row" | "created"> = {},
  ) {
    super(detail);
    this.name = "ApiError";
  }

  /** Seconds until a refused caller may try again (a 429's `Retry-After`). */
  retryAfterSeconds?: number;

  /** Too many failed sign-ins or grant confirmations from this client lately. */
  static tooManyAttempts(detail: string, retryAfterSeconds: number): ApiError {
    const error = new ApiError(429, "too_many_requests", detail);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }

  /** Over the general rate limit of a credential or a client address. */
  static rateLimited(detail: string, retryAfterSeconds: number): ApiError {
    const error = new ApiError(429, "rate_limited", detail);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }

  toProblem(): Problem {
    return {
      type: `urn:ledger:problem:${this.code}`,
      title: TITLES[this.status] ?? "Error",
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...this.members,
    };
  }

  /** A request that failed schema validation: every failing field is listed. */
  static validation(where: string, error: ZodError): ApiError {
    const errors = error.issues.map((issue) => ({
      field: [where, ...issue.path.map(String)].join("."),
      message: issue.message,
      // Our own checks name their kind (`control_character`, `not_an_integer`, ...) instead of zod's `custom`.
      code: issue.code === "custom" && typeof issue.params?.code === "string" ? issue.params.code : issue.code,
    }));
    return ApiError.invalid(errors);
  }

  /** A request whose fields are refused (`invalid_request`): `errors` names every one. */
  static invalid(errors: FieldError[]): ApiError {
    const fields = errors.map((e) => e.field).join(", ");
    return new ApiError(400, "invalid_request", `The request is not valid: ${fields}.`, errors);
  }

  /** A body that repeats path parameters with other values: a field refusal like any other, naming each. */
  static pathBodyMismatch(fields: string[]): ApiError {
    return ApiError.invalid(fields.map((field) => ({ field: `body.${field}`, message: `must equal the path's ${field}; send the path's value or leave it out`, code: "path_body_mismatch" })));
  }

  /** The ledger refused a write; its words are relayed verbatim. */
  static ledgerRefusal(words: string): ApiError {
    return new ApiError(409, "ledger_refusal", words);
  }

  /**
   * A bulk verb stopped at the first ledger refusal: `detail` is the ledger's words
   * verbatim, `row` the refused row's index, `created` the rows that landed before it.
   */
  static bulkRefusal(row: number, words: string, created: unknown[]): ApiError {
    return new ApiError(409, "ledger_refusal", words, undefined, { row, created });
  }

  static notFound(detail: string): ApiError {
    return new ApiError(404, "not_found", detail);
  }
}

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}
