import type { MiddlewareHandler } from "hono";
import { ApiError } from "../errors";

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

/**
 * Write bodies are JSON. A non-empty body of another type is 415, and a JSON body that
 * does not parse is 400, even on a write that takes no fields. No body at all is `{}`.
 */
export const requireJsonBody: MiddlewareHandler = async (c, next) => {
  const text = await c.req.text();
  if (text.trim() !== "") {
    const media = (c.req.header("content-type") ?? "").split(";")[0]!.trim();
    if (!JSON_MEDIA.test(media)) {
      throw new ApiError(415, "unsupported_media_type", `Send the body as application/json (got "${media || "no content type"}").`);
    }
    try {
      JSON.parse(text);
    } catch {
      throw new ApiError(400, "malformed_json", "The body is not valid JSON.");
    }
  }
  await next();
};
