import { z } from "@hono/zod-openapi";
import { notedPersonSchema, sideSchema } from "../shared";

const decidedCategory = (what: string) =>
  z.string().openapi({ description: `The category ${what} decided.`, example: "Meals" });

const ruleCitation = z
  .object({
    kind: z.literal("rule").openapi({ description: "A rule of the rulebook decided the line.", example: "rule" }),
    rule_key: z.string().openapi({ description: "The rule's key.", example: "coffee-shops" }),
    revision: z.number().int().openapi({ description: "The revision of the rule that decided the line.", example: 2 }),
    category: decidedCategory("the rule"),
  })
  .openapi("RuleCitation", { description: "The rule and the revision of it that decided the line." });

const humanCitation = z
  .object({
    kind: z.literal("human").openapi({ description: "A person (or their token) decided the line.", example: "human" }),
    actor: z.string().openapi({
      description:
        "Who judged: `human:<tenant>` for the owner's session (signed in with the tenant's password), `person:<id>` for a person's session (someone holding a seat in the tenant, who signed in by email), `token:<tenant>:<kid>` for a personal access token.",
      example: "person:p3f9a0c1b2d4e5f60",
    }),
    person: notedPersonSchema
      .nullable()
      .openapi({
        description: "The person a `person:<id>` actor names (the sentence names them too); null for the owner's session and for a token.",
        example: { id: "p3f9a0c1b2d4e5f60", name: "Dana Reyes", email: "dana@reyes-books.example" },
      }),
    at: z.string().openapi({
      description: "When the judgement was made (ISO 8601 UTC); for a carried judgement, when it was first made.",
      example: "2026-11-20T14:03:11.000Z",
    }),
    op: z
      .enum(["categorize", "label", "adjudicate"])
      .nullable()
      .openapi({ description: "The verb that made the judgement; null when the ledger did not record it.", example: "categorize" }),
    category: z
      .string()
      .nullable()
      .openapi({ description: "The category the person gave; null when they returned the line to the queue (unset).", example: "Meals" }),
    carried_from: z
      .object({
        side: z.literal("A").openapi({ description: "Always `A`: judgements are made on feed lines.", example: "A" }),
        src_id: z.number().int().openapi({ description: "The superseded line's id.", example: 9 }),
      })
      .nullable()
      .openapi({
        description: "The superseded line this judgement followed the line from (a pending line that posted, or a modified one); null when made on this line.",
        example: { side: "A", src_id: 9 },
      }),
  })
  .openapi("HumanCitation", { description: "The human judgement that decided the line: who, when, with which verb." });

const modelCitation = z
  .object({
    kind: z.literal("model").openapi({ description: "The local model decided the line.", example: "model" }),
    model_version: z.string().openapi({ description: "The model version that decided.", example: "local-2026.11" }),
    confidence: z.number().min(0).max(1).openapi({ description: "The model's confidence, 0..1.", example: 0.97 }),
    category: decidedCategory("the model"),
  })
  .openapi("ModelCitation", { description: "The local model and its confidence." });

const duhBandCitation = z
  .object({
    kind: z.literal("duh_band").openapi({ description: "The decision fell within the local model's duh band.", example: "duh_band" }),
    floor: z.number().min(0).max(1).openapi({ description: "The band's floor: the confidence (0..1) at or above which the local model decides by itself.", example: 0.95 }),
  })
  .openapi("DuhBandCitation", { description: "The duh band a model decision fell within; cited beside the model." });

const tailCitation = z
  .object({
    kind: z.literal("tail").openapi({ description: "The external model decided the line.", example: "tail" }),
    model_version: z.string().openapi({ description: "The external model version that decided.", example: "tail-2026-10" }),
    category: decidedCategory("the external model"),
  })
  .openapi("TailCitation", { description: "The external model (the tail) that decided the line." });

const pocketCitation = z
  .object({
    kind: z.literal("pocket").openapi({ description: "The line is on the owner add-back list.", example: "pocket" }),
    category: z.string().openapi({ description: "The line's category.", example: "Owner Draw" }),
    header: z.literal("draw").openapi({ description: "The header the category lives under: always `draw`.", example: "draw" }),
  })
  .openapi("PocketCitation", { description: "The pocket: the line's category lives under the `draw` header, so the line is on the owner add-back list." });

export const citationSchema = z
  .discriminatedUnion("kind", [ruleCitation, humanCitation, modelCitation, duhBandCitation, tailCitation, pocketCitation])
  .openapi("Citation", { description: "One piece of evidence for the line's category, told apart by `kind`." });

export const explanationResponse = z
  .object({
    side: sideSchema,
    src_id: z.number().int().openapi({ description: "The line's id on its side.", example: 12 }),
    category: z.string().openapi({ description: "The line's category as the row shows it; `uncategorised` means the queue.", example: "Meals" }),
    engine: z.enum(["rule", "human", "model", "tail", "none"]).openapi({
      description:
        "What decided the line (its latest decision): `rule`, `human` (categorize, label, adjudicate, or a judgement carried " +
        "over from a superseded line), `model` (the local model), `tail` (the external model), or `none`. A side-B row " +
        "is explained by its A twin's decision.",
      example: "rule",
    }),
    sentence: z.string().openapi({
      description: "One templated sentence rendered only from `citations`; empty when there is no citation.",
      example: "A:12 is Meals by rule coffee-shops (revision 2).",
    }),
    citations: z.array(citationSchema).openapi({
      description: "The evidence: the deciding rule, human, model (with the duh band) or tail, then the pocket when the category is under `draw`.",
      example: [{ kind: "rule", rule_key: "coffee-shops", revision: 2, category: "Meals" }],
    }),
    defect: z.string().openapi({
      description: "Empty when at least one citation exists; otherwise the reported gap (never a generated reason).",
      example: "",
    }),
  })
  .openapi("Explanation", { description: "Why a line has its category: the evidence and one sentence made from it." });
