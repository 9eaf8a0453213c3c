import { z } from "@hono/zod-openapi";
import { multiLineText, rowSchema, sideSchema, singleLineText } from "../shared";

const categoryField = singleLineText().trim().min(1).max(100).openapi({
  description: "The category; `uncategorised` (or `uncategorized`) puts the line back in the queue.",
  example: "Meals",
});

export const categorizeBody = z.object({
  side: sideSchema,
  src_id: z.number().int().min(1).openapi({ description: "The line's id on that side.", example: 42 }),
  category: categoryField,
});

export const labelBody = z.object({
  category: categoryField.openapi({ description: "The category the books should have given the line.", example: "Meals" }),
  reason: multiLineText().max(1000).optional().openapi({ description: "Why, stored as the label's provenance.", example: "Client lunch, not office coffee" }),
  side: sideSchema.optional().openapi({ description: "May repeat the path's side; must agree with it." }),
  src_id: z.number().int().min(1).optional().openapi({ description: "May repeat the path's src_id; must agree with it.", example: 42 }),
});

export const judgementResponse = z
  .object({
    op_seq: z.number().int().openapi({ description: "The op sequence number that moved the line.", example: 311 }),
    row: rowSchema,
  })
  .openapi("Judgement");
