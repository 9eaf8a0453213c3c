/**
 * src/exports/ (entry: this file, export_books): the books leaving the service: a bundle of
 * files, or a resync op pushed to a spreadsheet by the job queue (push-job.ts) with the
 * destination's OAuth access (spreadsheet-access.ts). May import the ledger (through its
 * object), the index (the destinations), auth/ (sealed tokens), the spreadsheet adapter,
 * jobs/job.ts, env.ts and errors.ts. Imported by the endpoints, the pages and the job
 * queue's consumer; never imports a face.
 */
/**
 * `export_books`: with a spreadsheet destination connected, append a resync op and queue
 * its push; otherwise open a bundle whose four files are downloaded later. The
 * destination list lives in D1: when it cannot be read, the bundle is still made and says
 * `unreadable` (something may be connected), never `known`.
 */
import type { PushJob } from "../jobs/job";
import { ApiError, settle } from "../errors";
import { liveDestinations, type DestinationView } from "../index-db/destinations";
import type { Face } from "../ledger/face";
import { pushStatus, type PushRecord } from "../ledger/reports/export/push-records";
import { EXPORT_FILES, type ExportRecord } from "../ledger/reports/export/snapshot";
import type { TenantLedger } from "../ledger/tenant-ledger";

export interface ExportContext {
  /** Where the destination list is read (the index database). */
  d1: D1Database;
  queue: Queue<PushJob>;
  ledger: DurableObjectStub<TenantLedger>;
  tenant: string;
  actor: string;
  face: Face;
  now: Date;
  /** The request's origin, for the download URLs. */
  origin: string;
}

export async function requestExport(ctx: ExportContext, destinationId: number | undefined) {
  let destinations: DestinationView[] | null;
  try {
    destinations = await liveDestinations(ctx.d1, ctx.tenant);
  } catch (error) {
    console.error(`the destination list of ${ctx.tenant} could not be read:`, error);
    destinations = null;
  }
  if (destinationId !== undefined && destinations === null) {
    throw new ApiError("destinations_unreadable", "The destination list could not be read just now, so nothing was pushed; try again shortly.");
  }
  const destination = destinationId === undefined ? destinations?.[0] : destinations!.find((d) => d.id === destinationId);
  if (destinationId !== undefined && !destination) {
    throw ApiError.notFound(`This tenant has no live spreadsheet destination ${destinationId}; connect one on /settings.`);
  }
  const at = ctx.now.toISOString();
  if (destination) {
    const op = settle(await ctx.ledger.openExport(ctx.face, { destinationId: destination.id, destinations: "known", actor: ctx.actor, at }));
    await ctx.queue.send({ kind: "push", tenant: ctx.tenant, exportId: op.id });
    return exportView(op, [], ctx.origin);
  }
  const bundle = settle(await ctx.ledger.openExport(ctx.face, { destinationId: null, destinations: destinations === null ? "unreadable" : "known", actor: ctx.actor, at }));
  return exportView(bundle, [], ctx.origin);
}

/** An export as served: a bundle receipt, or a resync op with its push attempts. */
export function exportView(record: ExportRecord, pushes: PushRecord[], origin: string) {
  if (record.destinationId !== null) {
    return {
      kind: "resync" as const,
      op_id: record.id,
      destination_id: record.destinationId,
      created_at: record.createdAt,
      destinations: record.destinations,
      status: pushStatus(pushes),
      pushes: pushes.map((p) => ({ attempt: p.attempt, status: p.status, rows: p.rows, final: p.final, error: p.error, at: p.at })),
    };
  }
  const perFile = <T>(value: (file: (typeof EXPORT_FILES)[number]) => T) =>
    Object.fromEntries(EXPORT_FILES.map((file) => [file, value(file)])) as Record<(typeof EXPORT_FILES)[number], T>;
  return {
    kind: "bundle" as const,
    export_id: record.id,
    created_at: record.createdAt,
    destinations: record.destinations,
    row_counts: perFile((file) => (file === "accounts.csv" ? record.accounts : record.transactions)),
    urls: perFile((file) => `${origin}/api/v1/exports/${record.id}/${file}`),
  };
}

/** A file of an export, streamed a page at a time: the reader pulls the next page only when it wants more. */
export function exportFileStream(ledger: DurableObjectStub<TenantLedger>, exportId: number, file: (typeof EXPORT_FILES)[number]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | null = null;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const page: { text: string; next: string | null } | null = settle(await ledger.exportPage(exportId, file, cursor));
        if (!page) return controller.error(new Error(`export ${exportId} vanished while streaming`));
        if (page.text !== "") controller.enqueue(encoder.encode(page.text));
        cursor = page.next;
        if (cursor === null) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
}
