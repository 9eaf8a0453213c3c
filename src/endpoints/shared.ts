/** Schemas more than one resource uses, and the input rules every resource holds its fields to. */
import { z } from "@hono/zod-openapi";
import { textProblem, type TextLines } from "../input/control-characters";
import { integerProblem } from "../input/numbers";
import { DATE_RANGE, dateRangeProblem } from "../input/dates";

export const problemSchema = z
  .object({
    type: z.string().openapi({ description: "A URN naming the problem kind.", example: "urn:ledger:problem:not_found" }),
    title: z.string().openapi({ description: "The kind of problem in words (one per `code`).", example: "Not found" }),
    status: z.number().int().openapi({ description: "The HTTP status.", example: 404 }),
    detail: z.string().openapi({ description: "What went wrong and what to do about it.", example: "This tenant holds no line A:42." }),
    code: z.string().openapi({ description: "A stable machine word for the problem.", example: "not_found" }),
    errors: z
      .array(
        z.object({
          field: z.string().openapi({ description: "Where the value was: body.x, query.x or path.x.", example: "query.per_page" }),
          message: z.string().openapi({ description: "Why it was refused.", example: "Too small: expected number to be >=1" }),
          code: z.string().openapi({ description: "The validator's issue code.", example: "too_small" }),
        }),
      )
      .optional()
      .openapi({ description: "For validation failures: every failing field." }),
    row: z
      .number()
      .int()
      .optional()
      .openapi({ description: "For a bulk verb stopped by a ledger refusal: the refused row's index in the request, from 0.", example: 3 }),
    created: z
      .array(z.unknown())
      .optional()
      .openapi({
        description:
          "For a bulk verb stopped by a ledger refusal: the rows created before the refused one, in order, in the shape of the verb's `created`. They stay created.",
      }),
  })
  .openapi("Problem", { description: "An RFC 9457 problem document." });

/** A person an actor `person:<id>` names, as the tenant's ledger noted them when they took their seat. */
export const notedPersonSchema = z.object({
  id: z.string().openapi({ description: "The person's id (`p` and 16 hex digits).", example: "p3f9a0c1b2d4e5f60" }),
  name: z.string().openapi({ description: "The person's name, as noted when they took their seat in the tenant.", example: "Dana Reyes" }),
  email: z.string().openapi({ description: "The person's email, as noted when they took their seat.", example: "dana@reyes-books.example" }),
});

/** A real calendar date, YYYY-MM-DD, from 1900-01-01 to 9999-12-31 (one error per bad value). */
export const isoDateSchema = z.iso.date(`a calendar date, YYYY-MM-DD, from ${DATE_RANGE.earliest} to ${DATE_RANGE.latest}`).superRefine((date, ctx) => {
  const problem = dateRangeProblem(date);
  if (problem) ctx.addIssue({ code: "custom", message: problem, params: { code: "date_out_of_range" } });
});

/**
 * Text a person or a client writes: refused when it holds a control character the field
 * is not meant to hold or a lone surrogate (src/input/control-characters.ts). Checked
 * before any trim, so chain `.trim()`, `.min()` and `.max()` after it.
 */
function humanText(lines: TextLines) {
  return z.string().superRefine((text, ctx) => {
    const problem = textProblem(text, lines);
    if (problem) ctx.addIssue({ code: "custom", message: problem.message, params: { code: problem.code } });
  });
}

/** A name, a label, a key or a search: no control character at all. */
export const singleLineText = () => humanText("single");

/** Free text over several lines: tab, line feed and carriage return allowed, no other control. */
export const multiLineText = () => humanText("multi");

export const sideSchema = z.enum(["A", "B"]).openapi({
  description: "`A` is the feed's line; `B` is an archived twin (a duplicate arrival).",
  example: "A",
});

export const lineStateSchema = z.enum(["in books", "pending", "superseded", "retracted", "archived"]).openapi({
  description: "Only `in books` lines count in totals.",
  example: "in books",
});

export const rowSchema = z
  .object({
    side: sideSchema,
    src_id: z.number().int().openapi({ description: "The line's id on its side.", example: 42 }),
    account_id: z.string().openapi({ description: "The bank sub-account the line belongs to.", example: "acc_checking" }),
    posted_on: z.string().openapi({ description: "ISO date the bank posted (or holds) the line.", example: "2026-11-20" }),
    description: z.string().openapi({ description: "The description as the bank printed it.", example: "SQ *BLUE BOTTLE 1234" }),
    amount_cents: z.number().int().openapi({ description: "Signed from the business's side: positive = money in.", example: -1250 }),
    category: z.string().openapi({ description: "The line's category; `uncategorised` means the queue.", example: "uncategorised" }),
    in_books: z.boolean().openapi({ description: "Whether the line counts in totals.", example: true }),
    exclude_reason: z.string().openapi({ description: "Empty for a line in books; otherwise why it is excluded.", example: "" }),
    state: lineStateSchema,
    currency: z.string().openapi({
      description: "The line's currency: the bank's `iso_currency_code` (else its `unofficial_currency_code`), or the books' own currency where it named none.",
      example: "USD",
    }),
    foreign_currency: z.boolean().openapi({
      description: "True when the line is in a currency other than the books': it is kept and listed, and left out of the P&L, which counts it instead.",
      example: false,
    }),
  })
  .openapi("TransactionRow", { description: "A row of relation C." });

/** The most rows one page of a list holds (`list_transactions`, `list_exceptions`). */
export const PER_PAGE_CAP = 100;

/**
 * An integer written in a query string or a path: decimal digits, an optional `-`, no
 * leading zero, at most Number.MAX_SAFE_INTEGER (src/input/numbers.ts). `0x10`, `1e1`,
 * `16.0`, `+16`, ` 16` and `016` are refused, never read as 16. At least 1 here: every
 * integer parameter of the API counts or names something from 1.
 */
export function paramInteger() {
  return z.preprocess((value, ctx) => {
    const problem = integerProblem(value);
    if (problem === null) return Number(value);
    ctx.issues.push({ code: "custom", message: problem, input: value, params: { code: "not_an_integer" } });
    return z.NEVER;
  }, z.number().int().min(1).max(Number.MAX_SAFE_INTEGER));
}

/** A 1-based page number from a query string. */
export const pageSchema = paramInteger().default(1).openapi({ description: "1-based page number.", example: 1 });

/** An integer from a query string, with a floor; values above `cap` are clamped to it. */
export function cappedInt(description: string, fallback: number, cap: number) {
  return paramInteger()
    .default(fallback)
    .openapi({ description: `${description} Default ${fallback}; values above ${cap} are clamped to ${cap}.`, example: fallback });
}
