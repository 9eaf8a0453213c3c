/**
 * Answers assembled around JSON text SQLite already wrote: a large report's thousands of
 * rows go from SQLite's JSON functions into the answer without becoming objects and being
 * serialised again.
 */

/** JSON text spliced into an answer as it stands. */
export class JsonFragment {
  constructor(readonly text: string) {}
}

/** JSON.stringify's output for plain data, with each fragment's text in its place. */
export function toJson(value: unknown): string {
  if (value instanceof JsonFragment) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : toJson(v))).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const members = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${members.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
