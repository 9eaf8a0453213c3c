/**
 * A query string whose percent-encoding is not UTF-8 is refused, naming the parameter.
 * The router would otherwise keep such a value as its literal `%..` text (or, elsewhere,
 * decode it as U+FFFD): a lone surrogate (`%ED%A0%80`, the three bytes a surrogate would
 * take) or a stray byte (`%FF`) would become some other text without a word.
 */
import type { MiddlewareHandler } from "hono";
import { ApiError, type FieldError } from "../errors";

/** The three-byte sequence UTF-8 would give a UTF-16 surrogate (U+D800..U+DFFF), which UTF-8 forbids. */
const ENCODED_SURROGATE = /%ED%[AB][0-9A-F]%[89AB][0-9A-F]/i;

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return null;
  }
}

/** Every parameter of `search` (without its `?`) whose name or value does not decode, as a field error. */
export function undecodableQueryParams(search: string): FieldError[] {
  const errors: FieldError[] = [];
  if (search === "") return errors;
  for (const pair of search.split("&")) {
    if (pair === "") continue;
    const equals = pair.indexOf("=");
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const rawValue = equals === -1 ? "" : pair.slice(equals + 1);
    const name = decoded(rawName);
    const value = decoded(rawValue);
    if (name !== null && value !== null) continue;
    const surrogate = ENCODED_SURROGATE.test(pair);
    errors.push({
      field: `query.${name ?? rawName}`,
      message: surrogate
        ? "holds an encoded lone surrogate, which is no character; send well-formed UTF-8"
        : "holds percent-encoding that is not UTF-8; encode the value's UTF-8 bytes",
      code: surrogate ? "lone_surrogate" : "invalid_encoding",
    });
  }
  return errors;
}

export const requireDecodableQuery: MiddlewareHandler = async (c, next) => {
  const url = c.req.url;
  const start = url.indexOf("?");
  if (start !== -1) {
    const errors = undecodableQueryParams(url.slice(start + 1));
    if (errors.length > 0) throw ApiError.invalid(errors);
  }
  await next();
};
