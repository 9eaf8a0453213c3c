import { z } from "@hono/zod-openapi";
import { cappedInt, pageSchema, PER_PAGE_CAP, rowSchema } from "../shared";
import { ruleInputSchema, ruleSchema } from "../rules/schema";

export const listExceptionsQuery = z.object({
  page: pageSchema,
  // By default a page holds all a list page may: a queue of up to 100 still comes whole.
  per_page: cappedInt("Exceptions per page.", PER_PAGE_CAP, PER_PAGE_CAP),
});

export const listExceptionsResponse = z
  .object({
    exceptions: z
      .array(rowSchema.extend({ a_id: z.number().int().openapi({ description: "The exception's side-A id.", example: 42 }) }))
      .openapi({ description: "This page of the side-A lines in books or pending, on this face, that nothing has given a category; newest first." }),
    page: z.number().int().openapi({ description: "The page served.", example: 1 }),
    per_page: z.number().int().openapi({ description: "Exceptions per page, after the cap.", example: 100 }),
    total: z.number().int().openapi({ description: "Exceptions on this face, over every page.", example: 7 }),
  })
  .openapi("Exceptions");

export const adjudicateBody = ruleInputSchema
  .safeExtend({ a_id: z.number().int().min(1).openapi({ description: "The exception's side-A id.", example: 42 }) })
  .openapi("Adjudication");

export const adjudicateResponse = z
  .object({
    op_seq: z.number().int().openapi({ description: "The op that decided the line.", example: 312 }),
    rule: ruleSchema,
    row: rowSchema,
  })
  .openapi("Adjudicated");
