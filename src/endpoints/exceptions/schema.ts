import { z } from "@hono/zod-openapi";
import { rowSchema } from "../shared";
import { ruleInputSchema, ruleSchema } from "../rules/schema";

export const listExceptionsResponse = z
  .object({
    exceptions: z
      .array(rowSchema.extend({ a_id: z.number().int().openapi({ description: "The exception's side-A id.", example: 42 }) }))
      .openapi({ description: "Side-A lines in books or pending, on this face, that nothing has given a category; newest first." }),
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
