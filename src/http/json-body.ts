import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

/**
 * Write bodies are JSON. A request that declares another content type is 415
 * (`unsupported_media_type`), with a body or without; so is a body sent with no content
 * type. A JSON body that does not parse (whitespace alone included) is 400
 * (`malformed_json`), even on a write that takes no fields. No body at all is `{}`: the
 * route's validator then reads `{}` too, so a required field left out is named like any
 * other and an empty body is never a parse failure.
 */
export const requireJsonBody: MiddlewareHandler = async (c, next) => {
  const media = (c.req.header("content-type") ?? "").split(";")[0]!.trim();
  if (media !== "" && !JSON_MEDIA.test(media)) {
    throw new ApiError("unsupported_media_type", `Send the body as application/json (got "${media}").`);
  }
  const text = await c.req.text();
  if (text === "") {
    // Hono's validator parses the text the request cached (a promise, whatever the type says).
    if (media !== "") (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve("{}");
  } else {
    if (media === "") throw new ApiError("unsupported_media_type", 'Send the body as application/json (got no content type).');
    try {
      JSON.parse(text);
    } catch {
      throw new ApiError("malformed_json", "The body is not valid JSON.");
    }
  }
  await next();
};
