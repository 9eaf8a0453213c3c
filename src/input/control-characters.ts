/**
 * src/input/ (no single entry; this file holds the text rules, numbers.ts and dates.ts the
 * rest): how strictly a value is read: control characters and lone surrogates, integers,
 * calendar dates, whole cents. Imports nothing of the service (.dependency-cruiser.cjs:
 * input-stands-alone); imported by the ledger, the endpoints (the zod schemas in
 * endpoints/shared.ts), the pages, the sandbox and http/.
 */
/**
 * What a person or a client may write into a text field: no control character (C0,
 * DEL, C1) but the whitespace a field is meant to hold, and no lone surrogate (half of a
 * UTF-16 pair, which no UTF-8 text can carry: storing it would silently replace it with
 * U+FFFD). Text from outside parties (the bank feed, inbound texts) is not held to this:
 * it is stored as received and made safe where it is shown.
 */

/**
 * `single`: a name, a label, a key, a search: no control character at all.
 * `multi`: free text written over several lines (a reply, a label's reason): tab, line
 * feed and carriage return are allowed, every other control is not.
 */
export type TextLines = "single" | "multi";

const MULTI_LINE_WHITESPACE = new Set([0x09, 0x0a, 0x0d]);

const CONTROL_NAMES: Record<number, string> = {
  0x00: "NUL",
  0x07: "BEL",
  0x08: "BS",
  0x09: "TAB",
  0x0a: "LF",
  0x0b: "VT",
  0x0c: "FF",
  0x0d: "CR",
  0x1b: "ESC",
  0x7f: "DEL",
  0x85: "NEL",
  0x9b: "CSI",
};

/** `U+001B (ESC)`: a code unit as a person reads it in an error. */
export function codePointName(unit: number): string {
  const hex = `U+${unit.toString(16).toUpperCase().padStart(4, "0")}`;
  const name = CONTROL_NAMES[unit];
  return name ? `${hex} (${name})` : hex;
}

function isControl(unit: number): boolean {
  return unit <= 0x1f || (unit >= 0x7f && unit <= 0x9f);
}

export interface TextProblem {
  /** `control_character` or `lone_surrogate`: the issue code a validation error carries. */
  code: "control_character" | "lone_surrogate";
  message: string;
}

/** Why `text` may not be written into a field of this kind, or null when it may. Names the first offender and where it is. */
export function textProblem(text: string, lines: TextLines): TextProblem | null {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (isControl(unit)) {
      if (lines === "multi" && MULTI_LINE_WHITESPACE.has(unit)) continue;
      const allowed = lines === "multi" ? "; only tab, line feed and carriage return are allowed here" : "";
      return { code: "control_character", message: `contains the control character ${codePointName(unit)} at position ${i}${allowed}` };
    }
    if (unit >= 0xd800 && unit <= 0xdfff) {
      const next = text.charCodeAt(i + 1);
      if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i += 1; // a well-formed pair: one character outside the Basic Multilingual Plane
        continue;
      }
      return { code: "lone_surrogate", message: `contains a lone surrogate ${codePointName(unit)} at position ${i}, which is no character; send well-formed UTF-16 (or UTF-8)` };
    }
  }
  return null;
}

/** With the `u` flag a surrogate class matches only a surrogate that is not half of a pair. */
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const LONE_SURROGATES = /[\ud800-\udfff]/gu;

/**
 * Outside text (the bank's) made storable: each lone surrogate becomes one U+FFFD, which
 * is what it stands for. A text column holds UTF-8, and a lone surrogate written into one
 * would come back as three U+FFFD (its three bytes, each unreadable). The verbatim record
 * (a line's `raw`) is JSON and keeps the bank's `\ud800` as sent.
 */
export function wellFormed(text: string): string {
  return LONE_SURROGATE.test(text) ? text.replace(LONE_SURROGATES, "\ufffd") : text;
}
