import { z } from "@hono/zod-openapi";
import { EXPORT_FILES } from "../../ledger/reports/export/snapshot";
import { paramInteger } from "../shared";

export const exportBooksBody = z
  .object({
    destination_id: z.number().int().min(1).optional().openapi({
      description: "The spreadsheet destination to push to. Omitted: the newest live one, or, when none is connected, the CSV bundle.",
      example: 3,
    }),
  })
  .openapi("ExportBooksRequest");

export const exportIdParams = z.object({
  export_id: paramInteger().openapi({ param: { name: "export_id", in: "path" }, description: "The export's id (a receipt's `export_id` or a resync op's `op_id`).", example: 12 }),
});

export const exportFileParams = exportIdParams.extend({
  file: z.enum(EXPORT_FILES).openapi({ param: { name: "file", in: "path" }, description: "One of the bundle's four files.", example: "transactions.csv" }),
});

const fileMap = <T extends z.ZodType>(value: (file: string) => T) =>
  z.object({
    "transactions.csv": value("transactions.csv"),
    "accounts.csv": value("accounts.csv"),
    "accounting-bank.csv": value("accounting-bank.csv"),
    "accounting.iif": value("accounting.iif"),
  });

const destinationsSchema = z.enum(["known", "unreadable"]).openapi({
  description:
    "`known`: the destination list was read (for a bundle: and found empty, so nothing was connected). `unreadable`: it could not be read, so a destination may be connected and was not pushed to.",
  example: "known",
});

const createdAt = z.string().openapi({ description: "When the export was made; its files are the books as of then.", example: "2026-11-22T15:04:05.000Z" });

export const bundleReceipt = z
  .object({
    kind: z.literal("bundle").openapi({ description: "The CSV bundle was rendered: download its four files." }),
    export_id: z.number().int().openapi({ description: "The export's id.", example: 12 }),
    created_at: createdAt,
    destinations: destinationsSchema,
    row_counts: fileMap((file) => z.number().int().openapi({ description: `Data rows in ${file}.` })).openapi({
      description:
        "Data rows per file, headers excluded: booked lines in transactions.csv and accounting-bank.csv, transactions (a TRNS/SPL/ENDTRNS block each) in accounting.iif, sub-accounts in accounts.csv.",
      example: { "transactions.csv": 120, "accounts.csv": 2, "accounting-bank.csv": 120, "accounting.iif": 120 },
    }),
    urls: fileMap((file) => z.string().openapi({ description: `Where ${file} is downloaded.` })).openapi({
      description: "Where each file is downloaded (authenticated GETs). The files read the same later: they are the books as of the export.",
      example: {
        "transactions.csv": "https://ledger.example/api/v1/exports/12/transactions.csv",
        "accounts.csv": "https://ledger.example/api/v1/exports/12/accounts.csv",
        "accounting-bank.csv": "https://ledger.example/api/v1/exports/12/accounting-bank.csv",
        "accounting.iif": "https://ledger.example/api/v1/exports/12/accounting.iif",
      },
    }),
  })
  .openapi("ExportReceipt");

const pushSchema = z.object({
  attempt: z.number().int().openapi({ description: "1 for the first attempt.", example: 1 }),
  status: z.enum(["pushed", "failed"]).openapi({ description: "How the attempt ended.", example: "pushed" }),
  rows: z.number().int().openapi({ description: "Rows written to the sheet, its header excluded.", example: 120 }),
  final: z.boolean().openapi({ description: "True when no further attempt will be made.", example: true }),
  error: z.string().nullable().openapi({ description: "Why the attempt failed; null when it pushed.", example: null }),
  at: z.string().openapi({ description: "When the attempt ended.", example: "2026-11-22T15:04:09.000Z" }),
});

export const resyncOp = z
  .object({
    kind: z.literal("resync").openapi({ description: "A resync op was appended: the books are pushed to the spreadsheet by a queue job." }),
    op_id: z.number().int().openapi({ description: "The op's id; read it again with get_export.", example: 13 }),
    destination_id: z.number().int().openapi({ description: "The destination it pushes to.", example: 3 }),
    created_at: createdAt,
    destinations: destinationsSchema,
    status: z.enum(["queued", "pushed", "failed"]).openapi({ description: "`queued` until an attempt ends the push.", example: "queued" }),
    pushes: z.array(pushSchema).openapi({ description: "Every attempt so far, oldest first." }),
  })
  .openapi("ResyncOp");

export const exportAnswer = z.discriminatedUnion("kind", [bundleReceipt, resyncOp]).openapi("Export", {
  description: "A bundle receipt (`kind: bundle`) or a resync op (`kind: resync`).",
});
