/**
 * The words a rule's matches must contain, as a query on the trigram index over relation
 * C's descriptions (`c_words`), so create_rule reads the undecided lines that may match
 * rather than every undecided line (0.3 s at 100,000, even for a rule matching none). The
 * query names a superset: each candidate is still checked by the rule itself.
 *
 * A word is used only where the index cannot miss a match: printable ASCII text, whose
 * case the index folds at least as widely as the rule's matcher does (a pattern's pieces
 * are folded by `foldForLiterals`: ASCII case, and the long s and the Kelvin sign, which
 * the index folds to "s" and "k" too), and at least three characters (the index's
 * trigrams). A rule with no such word answers null and its caller reads every line.
 */
import { foldDescription } from "./fold";
import { readPattern, type Prefilter } from "./pattern";
import type { Rule } from "./rule";

/** The shortest text the trigram index can search for. */
const TRIGRAM = 3;
/** Printable ASCII: one code unit each, folded by the index exactly as by the matchers. */
const PRINTABLE = /^[\x20-\x7e]$/;
const NOT_PRINTABLE = /[^\x20-\x7e]+/;

/** An FTS5 query on `c_words` every line the rule matches satisfies, or null when none is known. */
export function wordsQueryOf(rule: Pick<Rule, "match_kind" | "match_value">): string | null {
  switch (rule.match_kind) {
    case "description_exact": {
      // Folding turns any run of whitespace into one space, so each word, not the phrase, is
      // in the description. The Kelvin sign lowercases to "k": a word with a "k" may stand
      // for text the index folds otherwise, so it is left out.
      const words = foldDescription(rule.match_value)
        .split(" ")
        .filter((word) => word.length >= TRIGRAM && !word.includes("k") && [...word].every((ch) => PRINTABLE.test(ch)));
      return words.length === 0 ? null : words.map(phrase).join(" AND ");
    }
    case "description_regex": {
      const prefilter = readPattern(rule.match_value).pattern?.prefilter;
      return prefilter ? prefilterQuery(prefilter) : null;
    }
    case "amount_sign":
      return null;
  }
}

function phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The query a pattern's prefilter makes: every piece of it the index can search for
 * (runs of printable ASCII of three characters or more, each in every match where the
 * piece is), all that a match must hold, and any of the alternatives where each of them
 * names one; null when no such query is known.
 */
function prefilterQuery(prefilter: Prefilter): string | null {
  if (typeof prefilter === "string") {
    const runs = prefilter.split(NOT_PRINTABLE).filter((run) => run.length >= TRIGRAM);
    return runs.length === 0 ? null : all(runs.map(phrase));
  }
  if ("all" in prefilter) {
    const known = prefilter.all.map(prefilterQuery).filter((q): q is string => q !== null);
    return known.length === 0 ? null : all(known);
  }
  const alternatives = prefilter.any.map(prefilterQuery);
  return alternatives.some((q) => q === null) ? null : `(${alternatives.join(" OR ")})`;
}

function all(queries: string[]): string {
  return queries.length === 1 ? queries[0]! : `(${queries.join(" AND ")})`;
}
