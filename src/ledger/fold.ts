/** Descriptions compare whole, case-insensitively, after trimming and folding inner whitespace. */
export function foldDescription(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}
