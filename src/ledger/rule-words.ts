/**
 * The words a rule's matches must contain, as a query on the trigram index over relation
 * C's descriptions (`c_words`), so create_rule reads the undecided lines that may match
 * rather than every undecided line (0.3 s at 100,000, even for a rule matching none). The
 * query names a superset: each candidate is still checked by the rule itself.
 *
 * A word is used only where the index cannot miss a match: ASCII text, whose case the
 * index folds as the rule's matcher does (an ASCII letter in a pattern with the `i` flag
 * matches only its two ASCII cases), and at least three characters (the index's
 * trigrams). A rule with no such word answers null and its caller reads every line.
 */
import { foldDescription } from "./fold";
import type { Rule } from "./rules";

/** The shortest text the trigram index can search for. */
const TRIGRAM = 3;
/** Printable ASCII: one code unit each, folded by the index exactly as by the matchers. */
const PRINTABLE = /^[\x20-\x7e]$/;
const PUNCTUATION = /^[!-/:-@[-`{-~]$/;
const QUANTIFIER = /^\{\d+(,\d*)?\}/;

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
      const text = requiredText(rule.match_value);
      return text === null ? null : phrase(text);
    }
    case "amount_sign":
      return null;
  }
}

function phrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The longest run of plain characters that every match of a pattern (read with the `i`
 * flag only, as rules are) must contain, lowercased; null when it is shorter than three
 * characters or the pattern holds an alternation outside any group. Conservative: a
 * group, a class, an anchor, a character escape other than escaped punctuation, a
 * quantified character or any character beyond printable ASCII ends a run.
 */
export function requiredText(pattern: string): string | null {
  const runs: string[] = [];
  let run = "";
  const endRun = () => {
    if (run !== "") runs.push(run);
    run = "";
  };
  let depth = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\") {
      const escaped = pattern[i + 1] ?? "";
      if (depth === 0 && PUNCTUATION.test(escaped)) run += escaped;
      else endRun();
      i += escapeLength(pattern, i + 1);
    } else if (ch === "[") {
      i = classEnd(pattern, i);
      if (i < 0) return null;
      endRun();
    } else if (ch === "(") {
      depth++;
      endRun();
    } else if (ch === ")") {
      depth--;
    } else if (depth > 0) {
      continue;
    } else if (ch === "|") {
      return null;
    } else if (ch === "*" || ch === "+" || ch === "?" || ch === "{") {
      // The character before a quantifier may repeat or vanish: it belongs to no run.
      run = run.slice(0, -1);
      endRun();
      if (ch === "{") i += (QUANTIFIER.exec(pattern.slice(i))?.[0].length ?? 1) - 1;
    } else if (ch === "^" || ch === "$" || ch === "." || ch === "]" || ch === "}" || !PRINTABLE.test(ch)) {
      endRun();
    } else {
      run += ch;
    }
  }
  endRun();
  const longest = runs.reduce((a, b) => (b.length > a.length ? b : a), "");
  return longest.length >= TRIGRAM ? longest.toLowerCase() : null;
}

/**
 * How many characters the escape starting at `at` (just after its backslash) spans: more
 * than one for a code (`\\x41`, `\\u0041`, `\\u{41}`, `\\cJ`), an octal or back-reference
 * (`\\101`, `\\12`), a name (`\\k<name>`) or a property (`\\p{L}`). Erring long only ends a run.
 */
function escapeLength(pattern: string, at: number): number {
  const rest = pattern.slice(at);
  const spanned = /^(u\{[^}]*\}?|u[0-9a-f]{0,4}|x[0-9a-f]{0,2}|c[a-z]?|\d{1,3}|k(<[^>]*>?)?|[pP](\{[^}]*\}?)?)/i.exec(rest);
  return spanned ? spanned[0].length : 1;
}

/** The index of the `]` closing the class opened at `open`, or -1 when it never closes. */
function classEnd(pattern: string, open: number): number {
  let i = open + 1;
  if (pattern[i] === "^") i++;
  for (; i < pattern.length; i++) {
    if (pattern[i] === "\\") i++;
    else if (pattern[i] === "]") return i;
  }
  return -1;
}
