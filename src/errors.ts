/**
 * The one error type. Anything thrown as an ApiError reaches the client as
 * `application/problem+json` (RFC 9457) through `app.onError`; anything else is a
 * 500 that names no internals.
 */
import type { ZodError } from "zod";
import { ERROR_CATALOG, type ErrorCode } from "./error-catalog";
import type { Outcome } from "./ledger/outcome";

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


export class ApiError extends Error {
  /** The status the catalog gives the code. */
  readonly status: number;

  constructor(
    /** A stable machine word from the catalog, e.g. `not_found`, `read_only_token`, `nothing_connected`. */
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Extra problem members (the bulk verbs' `row` and `created`). */
    readonly members: Pick<Problem, "row" | "created"> = {},
  ) {
    super(detail);
    this.name = "ApiError";
    this.status = ERROR_CATALOG[code].status;
  }

  /** Seconds until a refused caller may try again (a 429's `Retry-After`). */
  retryAfterSeconds?: number;

  /** Too many failed sign-ins or grant confirmations from this client lately. */
  static tooManyAttempts(detail: string, retryAfterSeconds: number): ApiError {
    const error = new ApiError("too_many_requests", detail);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }

  /** Over the general rate limit of a credential or a client address. */
  static rateLimited(detail: string, retryAfterSeconds: number): ApiError {
    const error = new ApiError("rate_limited", detail);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }

  toProblem(): Problem {
    return {
      type: `urn:ledger:problem:${this.code}`,
      title: ERROR_CATALOG[this.code].title,
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
    return new ApiError("invalid_request", `The request is not valid: ${fields}.`, errors);
  }

  /** A body that repeats path parameters with other values: a field refusal like any other, naming each. */
  static pathBodyMismatch(fields: string[]): ApiError {
    return ApiError.invalid(fields.map((field) => ({ field: `body.${field}`, message: `must equal the path's ${field}; send the path's value or leave it out`, code: "path_body_mismatch" })));
  }

  /** The ledger refused a write; its words are relayed verbatim. */
  static ledgerRefusal(words: string): ApiError {
    return new ApiError("ledger_refusal", words);
  }

  /**
   * A bulk verb stopped at the first ledger refusal: `detail` is the ledger's words
   * verbatim, `row` the refused row's index, `created` the rows that landed before it.
   */
  static bulkRefusal(row: number, words: string, created: unknown[]): ApiError {
    return new ApiError("ledger_refusal", words, undefined, { row, created });
  }

  static notFound(detail: string): ApiError {
    return new ApiError("not_found", detail);
  }
}

export function problemResponse(problem: Problem, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(problem), {
    status: problem.status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}

/** The value of a ledger call, or its refusal as the problem the client gets: 404 for what the tenant does not hold, 409 in the ledger's words. */
export function settle<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  const { refusal } = outcome;
  if (refusal.kind === "not_found") throw ApiError.notFound(refusal.words);
  if (refusal.row !== undefined) throw ApiError.bulkRefusal(refusal.row, refusal.words, refusal.created ?? []);
  throw ApiError.ledgerRefusal(refusal.words);
}
