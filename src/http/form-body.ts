import type { Context } from "hono";
import { ApiError } from "../errors";

/**
 * A page's or the webhook's form fields. A body that claims to be a form and cannot be
 * read as one (a multipart body without its boundary, say) is 400 `malformed_form`, as a
 * JSON body that does not parse is `malformed_json`, never a 500.
 */
export async function formOf(c: Context): Promise<Record<string, string | File>> {
  try {
    return await c.req.parseBody();
  } catch {
    throw new ApiError("malformed_form", "The body is not a form that can be read (application/x-www-form-urlencoded or multipart/form-data).");
  }
}

/** A form's fields with every value of a repeated field kept (checkboxes of one name), as lists. */
export async function formListsOf(c: Context): Promise<Record<string, (string | File)[]>> {
  try {
    const body = await c.req.parseBody({ all: true });
    return Object.fromEntries(Object.entries(body).map(([name, value]) => [name, Array.isArray(value) ? value : [value]]));
  } catch {
    throw new ApiError("malformed_form", "The body is not a form that can be read (application/x-www-form-urlencoded or multipart/form-data).");
  }
}
