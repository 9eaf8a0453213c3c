/** Whitespace that folding changes: at either end, in a run, or other than a plain space. */
const UNFOLDED_SPACE = /^\s|\s$|\s\s|[^\S ]/;

/** Descriptions compare whole, case-insensitively, after trimming and folding inner whitespace. */
export function foldDescription(text: string): string {
  // Most descriptions have nothing to fold but their case: no strings built to replace nothing.
  return UNFOLDED_SPACE.test(text) ? text.trim().replace(/\s+/g, " ").toLowerCase() : text.toLowerCase();
}
