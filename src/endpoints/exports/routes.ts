import { ApiError, settle } from "../../errors";
import { exportFileStream, exportView, requestExport } from "../../exports/export-books";
import { defineDownload, defineEndpoint } from "../define";
import { exportAnswer, exportBooksBody, exportFileParams, exportIdParams } from "./schema";

export const exportBooks = defineEndpoint({
  operationId: "export_books",
  method: "post",
  path: "/api/v1/export",
  tag: "export",
  summary: "Export the books",
  description:
    "Exports the booked lines on the caller's face (pending lines and anything not in books are never exported). With a " +
    "spreadsheet destination connected on /settings (`destination_id`, or the newest live one), appends a resync op and " +
    "returns its `op_id`; a queue job then rewrites the sheet, so poll get_export for its status. Otherwise renders the CSV " +
    "bundle and returns a receipt: row counts, four download URLs (transactions.csv, accounts.csv, the online accounting " +
    "package's 3-column bank upload accounting-bank.csv, and the desktop package's accounting.iif, which carries " +
    "categories) and `destinations`: `known` means the destination list was read and is empty; `unreadable` means it could " +
    "not be read. The files are the books as of the export, and read the same later. Text in the files and in a push is " +
    "written as text (see get_export_file).",
  credential: "write",
  body: exportBooksBody,
  success: { status: 200, description: "A bundle receipt or a resync op.", schema: exportAnswer },
  errors: {
    not_found: "`destination_id` names no live destination of this tenant.",
    destinations_unreadable: "`destination_id` was given but the destination list could not be read; nothing was pushed.",
  },
  async handler({ env, ledger, caller, face, now, origin, body }) {
    const context = { d1: env.INDEX_DB, queue: env.JOB_QUEUE, ledger, tenant: caller.tenant.id, actor: caller.actor, face, now, origin };
    return requestExport(context, body.destination_id);
  },
});

export const getExport = defineEndpoint({
  operationId: "get_export",
  method: "get",
  path: "/api/v1/exports/{export_id}",
  tag: "export",
  summary: "Read an export",
  description:
    "An export made by export_books: a bundle's receipt (row counts and download URLs), or a resync op with its status " +
    "(`queued`, `pushed`, `failed`) and every push attempt. 404 when this tenant made no such export.",
  credential: "read",
  params: exportIdParams,
  success: { status: 200, description: "The export.", schema: exportAnswer },
  errors: { not_found: "This tenant made no such export." },
  async handler({ ledger, params, origin }) {
    const found = settle(await ledger.exportRecord(params.export_id));
    if (!found) throw ApiError.notFound(`This tenant made no export ${params.export_id}.`);
    return exportView(found.record, found.pushes, origin);
  },
});

const MEDIA_TYPE = {
  "transactions.csv": "text/csv; charset=utf-8",
  "accounts.csv": "text/csv; charset=utf-8",
  "accounting-bank.csv": "text/csv; charset=utf-8",
  "accounting.iif": "text/plain; charset=utf-8",
} as const;

export const getExportFile = defineDownload({
  operationId: "get_export_file",
  method: "get",
  path: "/api/v1/exports/{export_id}/{file}",
  tag: "export",
  summary: "Download a file of an export",
  description:
    "Streams one of an export's four files, the books as of the export: transactions.csv (RFC 4180: date, description, " +
    "amount, category, header, account, side, id, state), accounts.csv, accounting-bank.csv (Date,Description,Amount; " +
    "MM/DD/YYYY; negative = money out) and accounting.iif (tab-delimited: !ACCNT list, then TRNS/SPL/ENDTRNS per line, each " +
    "balanced). Text is written as text: a cell a spreadsheet would read as a formula (`=`, `+`, `-` or `@` first, also " +
    "behind spaces) starts with an added `'`, and such a character after a `;` inside the text gets one after the " +
    "`;`; a tab or a line break is a space and any other control character U+FFFD, so every record is one line. Amounts are plain numbers, " +
    "never prefixed. Large books stream; nothing is held whole. 404 when this tenant made no such export.",
  credential: "read",
  params: exportFileParams,
  success: {
    description: "The file.",
    mediaTypes: {
      "text/csv": "transactions.csv, accounts.csv or accounting-bank.csv (CRLF line ends).",
      "text/plain": "accounting.iif: tab-delimited (CRLF line ends).",
    },
  },
  errors: { not_found: "This tenant made no such export." },
  async handler({ ledger, params }) {
    if (!(settle(await ledger.exportRecord(params.export_id)))) throw ApiError.notFound(`This tenant made no export ${params.export_id}.`);
    return { body: exportFileStream(ledger, params.export_id, params.file), mediaType: MEDIA_TYPE[params.file], filename: params.file };
  },
});
