/**
 * Which tenant an inbound text is for, when the sender's phone is enrolled with more than
 * one: the one the text names (its handle, or another of its names, anywhere in the text,
 * as a word of its own, in any case), or none, and then the sender is asked. Never two.
 */

export interface Addressee {
  id: string;
  /** What the text may name it by: its handle first, then any other name it goes by. */
  names: readonly string[];
}

export type Routing = { kind: "tenant"; id: string } | { kind: "ask"; question: string };

/** A name as a word: not inside a longer handle or word (letters, digits and `-` join a handle). */
function names(text: string, name: string): boolean {
  const folded = name.trim().replace(/\s+/g, " ").toLowerCase();
  if (folded === "") return false;
  const haystack = text.replace(/\s+/g, " ").toLowerCase();
  for (let at = haystack.indexOf(folded); at !== -1; at = haystack.indexOf(folded, at + 1)) {
    const before = haystack[at - 1];
    const after = haystack[at + folded.length];
    const joins = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}-]/u.test(c);
    if (!joins(before) && !joins(after)) return true;
  }
  return false;
}

/** Routes a text among the tenants its sender's phone is enrolled with (one or more). */
export function routeText(text: string, enrolled: readonly Addressee[]): Routing {
  if (enrolled.length === 1) return { kind: "tenant", id: enrolled[0]!.id };
  const named = enrolled.filter((t) => t.names.some((name) => names(text, name)));
  if (named.length === 1) return { kind: "tenant", id: named[0]!.id };
  const handles = enrolled.map((t) => t.names[0] ?? t.id).sort();
  const which = named.length === 0 ? "Which business is this message for?" : "This message names more than one business; which one is it for?";
  return {
    kind: "ask",
    question:
      `This number is enrolled with ${handles.length} businesses: ${handles.join(", ")}. ${which} ` +
      `Send it again with the business's name in it, e.g. "${handles[0]}: ..." Nothing was filed.`,
  };
}
