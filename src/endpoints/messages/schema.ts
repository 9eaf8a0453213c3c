import { z } from "@hono/zod-openapi";
import { cappedInt } from "../shared";

export const MESSAGES_CAP = 200;

export const messagesQuery = z.object({ limit: cappedInt("How many messages, newest first.", 50, MESSAGES_CAP) });

export const messagesResponse = z
  .object({
    messages: z.array(
      z
        .object({
          message_id: z.number().int().openapi({ description: "The message's id in the thread.", example: 12 }),
          direction: z.enum(["in", "out"]).openapi({ description: "`in`: texted by the customer; `out`: a reply texted back, or a notice from the service.", example: "in" }),
          channel: z.enum(["sms", "notice"]).openapi({
            description: "`sms`: texted (or being texted); `notice`: a notice from the service posted in the thread only, never texted.",
            example: "sms",
          }),
          status: z.string().openapi({
            description: "`received` for an inbound text; `sending`, `sent` or `failed` for a reply or a texted notice; `posted` for a notice in the thread only.",
            example: "received",
          }),
          body: z.string().openapi({ description: "The text.", example: "Is the Costco run business or personal?" }),
          provider_sid: z.string().openapi({ description: "The carrier's id; empty until the carrier returns one.", example: "SM0f1e2d3c4b5a69788796a5b4c3d2e1f0" }),
          created_at: z.string().openapi({ description: "When it arrived or was drafted.", example: "2026-11-22T15:00:00.000Z" }),
        })
        .openapi("Message"),
    ).openapi({ description: "Inbound texts, released replies and the service's notices (a parity mismatch), newest first; drafts are never listed." }),
    count: z.number().int().openapi({ description: "The number of messages in this response (not a lifetime total).", example: 1 }),
  })
  .openapi("Messages");
