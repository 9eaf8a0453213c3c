import { z } from "@hono/zod-openapi";
import { cappedInt, isoDateSchema, pageSchema, paramInteger, PER_PAGE_CAP } from "../shared";
import { verdictSummarySchema } from "../reports/schema";

export const verdictHistoryQuery = z.object({
  from: isoDateSchema.optional().openapi({ description: "Inclusive lower bound on the verdict's day (`as_of`).", example: "2026-11-01" }),
  to: isoDateSchema.optional().openapi({ description: "Inclusive upper bound on the verdict's day (`as_of`).", example: "2026-11-30" }),
  revisions: z.enum(["latest", "all"]).default("latest").openapi({
    description:
      "`latest` (the default): each day's newest revision, the day's verdict (or, for a day without one, its last failed run). `all`: every revision filed and every failed run.",
    example: "latest",
  }),
  page: pageSchema,
  per_page: cappedInt("Entries per page.", 50, PER_PAGE_CAP),
});

/** A daily run that filed no verdict: the history lists it beside the verdicts, so a day without one says why. */
export const failedRunSchema = z
  .object({
    status: z.literal("failed").openapi({ description: "`failed`: the daily run filed no verdict for the day; `error` says why.", example: "failed" }),
    as_of: z.string().openapi({ description: "The day the run was to file the verdict for.", example: "2026-11-21" }),
    ran_at: z.string().openapi({ description: "The daily run's scheduled time (ISO 8601, UTC).", example: "2026-11-21T11:00:00.000Z" }),
    recorded_at: z.string().openapi({ description: "When the failure was recorded (ISO 8601, UTC).", example: "2026-11-21T11:00:03.518Z" }),
    error: z.string().openapi({
      description: "Why no verdict was filed: the oracle's answer (unreachable, an HTTP error, not the structured report), or the job queue giving up on the day's run.",
      example: "the oracle answered HTTP 500",
    }),
    oracle_url: z.string().openapi({ description: "The oracle source's address, without query or fragment (never its secret).", example: "https://reports.example.com/pnl.json" }),
    recorded_by: z.string().openapi({
      description: "`cron:daily-parity` (the run ended on the oracle's failure) or `service:job-queue` (every delivery of the day's run failed, and the queue gave up on it).",
      example: "cron:daily-parity",
    }),
  })
  .openapi("ParityFailedRun", { description: "A daily run that filed no parity verdict for its day, and why." });

export const verdictHistoryResponse = z
  .object({
    verdicts: z
      .array(z.discriminatedUnion("status", [verdictSummarySchema, failedRunSchema]))
      .openapi({
        description:
          "This page's verdicts (`status` `filed`) and the daily runs that filed none (`failed`), newest day first, then newest first within a day " +
          "(a verdict's revisions in order). With `revisions=latest`, a day's entry is its verdict, or, for a day without one, its last failed run.",
      }),
    page: z.number().int().openapi({ description: "The page served.", example: 1 }),
    per_page: z.number().int().openapi({ description: "Entries per page, after the cap.", example: 50 }),
    total: z.number().int().openapi({ description: "Entries matched, over every page.", example: 31 }),
  })
  .openapi("ParityVerdictHistory");

export const verdictParams = z.object({
  as_of: isoDateSchema.openapi({ param: { name: "as_of", in: "path" }, description: "The verdict's day.", example: "2026-11-20" }),
});

export const verdictQuery = z.object({
  revision: paramInteger().optional().openapi({ description: "The revision to read. Default: the day's newest.", example: 2 }),
});
