import { z } from "@hono/zod-openapi";
import { cappedInt } from "../shared";

export const SYNC_HISTORY_CAP = 200;

export const syncNowResponse = z
  .object({
    state: z.enum(["recorded", "already-pending"]).openapi({
      description: "`recorded`: a new request was queued; `already-pending`: one is waiting and this call added nothing.",
      example: "recorded",
    }),
    request_id: z.number().int().openapi({ description: "The pending request.", example: 7 }),
    requested_at: z.string().openapi({ description: "When that request was made.", example: "2026-11-22T15:04:05.000Z" }),
  })
  .openapi("SyncRequest");

export const syncHistoryQuery = z.object({ limit: cappedInt("How many runs.", 50, SYNC_HISTORY_CAP) });

export const syncHistoryResponse = z
  .object({
    runs: z
      .array(
      z.object({
        run_id: z.number().int().openapi({ description: "The run's id.", example: 12 }),
        request_id: z.number().int().openapi({ description: "The sync request the run served.", example: 7 }),
        attempt: z.number().int().openapi({ description: "1 for the first delivery; higher for retries.", example: 1 }),
        started_at: z.string().openapi({ description: "When the watcher started the attempt.", example: "2026-11-22T15:04:06.000Z" }),
        finished_at: z.string().openapi({ description: "When the attempt ended.", example: "2026-11-22T15:04:07.000Z" }),
        status: z.enum(["ok", "failed"]).openapi({ description: "`ok`: every page was applied; `failed`: see `error`.", example: "ok" }),
        final: z.boolean().openapi({ description: "False when the queue will try the request again.", example: true }),
        error: z.string().nullable().openapi({ description: "Why a failed run failed.", example: null }),
        pages: z.number().int().openapi({ description: "Pages of the feed pulled.", example: 2 }),
        added: z.number().int().openapi({ description: "New side-A lines.", example: 40 }),
        modified: z.number().int().openapi({ description: "Lines replaced by the bank's modifications.", example: 1 }),
        removed: z.number().int().openapi({ description: "Lines the bank retracted.", example: 1 }),
        duplicates: z.number().int().openapi({ description: "Duplicate arrivals archived on side B.", example: 0 }),
      }),
      )
      .openapi({ description: "Runs, newest first; a retried request has one run per attempt." }),
  })
  .openapi("SyncHistory");
