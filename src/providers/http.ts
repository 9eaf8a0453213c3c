/** Small helpers the outside-party adapters share. */

/** `path` under a base address, keeping any path the base has (`https://host/v1`). */
export function endpoint(baseUrl: string, path: string): URL {
  return new URL(path, baseUrl.endsWith("/") ? baseUrl : `${baseUrl}/`);
}

/** The parsed JSON of a body, or undefined when it is not JSON. */
export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
