import { z } from "@hono/zod-openapi";
import { cappedInt, isoDateSchema, pageSchema, paramInteger, PER_PAGE_CAP } from "../shared";
import { verdictSummarySchema } from "../reports/schema";

export const verdictHistoryQuery = z.object({
  from: isoDateSchema.optional().openapi({ description: "Inclusive lower bound on the verdict's day (`as_of`).", example: "2026-11-01" }),
  to: isoDateSchema.optional().openapi({ description: "Inclusive upper bound on the verdict's day (`as_of`).", example: "2026-11-30" }),
  revisions: z.enum(["latest", "all"]).default("latest").openapi({
    description: "`latest` (the default): each day's newest revision, the day's verdict. `all`: every revision filed.",
    example: "latest",
  }),
  page: pageSchema,
  per_page: cappedInt("Verdicts per page.", 50, PER_PAGE_CAP),
});

export const verdictHistoryResponse = z
  .object({
    verdicts: z.array(verdictSummarySchema).openapi({ description: "This page's verdicts, newest day first, then newest revision first." }),
    page: z.number().int().openapi({ description: "The page served.", example: 1 }),
    per_page: z.number().int().openapi({ description: "Verdicts per page, after the cap.", example: 50 }),
    total: z.number().int().openapi({ description: "Verdicts matched, over every page.", example: 31 }),
  })
  .openapi("ParityVerdictHistory");

export const verdictParams = z.object({
  as_of: isoDateSchema.openapi({ param: { name: "as_of", in: "path" }, description: "The verdict's day.", example: "2026-11-20" }),
});

export const verdictQuery = z.object({
  revision: paramInteger().optional().openapi({ description: "The revision to read. Default: the day's newest.", example: 2 }),
});
