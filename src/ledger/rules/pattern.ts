/**
 * Rule patterns (`description_regex`): RE2 syntax, matched case-insensitively by re2js, a
 * linear-time engine. No pattern can backtrack, so none needs a proof of safety: a pattern
 * is accepted exactly when RE2 compiles it (within MAX_PATTERN_LENGTH), and whatever RE2
 * does not have (backreferences, lookaround, possessive quantifiers, ...) is refused in
 * words that name the construct (docs/patterns.md is the user's reference).
 *
 * Besides the compiled pattern, reading one yields what makes matching many patterns over
 * many lines cheap: the literal texts the whole pattern is, when it is nothing else, and
 * the literal pieces every match must contain (a prefilter, from RE2's own parse tree),
 * both in the case folding of `foldForLiterals`, so one automaton pass over a line's
 * folded text decides the plain ones and rules the others out before any of them runs.
 */
import { RE2JS, RE2JSException, RE2JSSyntaxException } from "re2js";

export const MAX_PATTERN_LENGTH = 200;
/** A pattern reads at most this much of a description, so matching work stays bounded. */
export const MAX_MATCHED_LENGTH = 1_000;

/**
 * What every match of a pattern contains: a piece of ASCII text (compared in
 * `foldForLiterals`' folding), all of several conditions, or any of several.
 */
export type Prefilter = string | { all: Prefilter[] } | { any: Prefilter[] };

export interface RulePattern {
  source: string;
  /** The pattern, case-insensitive, compiled once. */
  regex: RE2JS;
  /**
   * Folded ASCII texts such that the pattern matches wherever a folded description contains
   * one of them, when the pattern is nothing but those texts as alternatives (`ZOOM\.US`,
   * `PG&E`, `(UBER|LYFT)`); otherwise null.
   */
  texts: string[] | null;
  /** What every match contains, or null when nothing is known (the pattern must run on every line). */
  prefilter: Prefilter | null;
}

export type PatternReading = { pattern: RulePattern; problem?: undefined } | { pattern?: undefined; problem: string };

/**
 * Patterns read so far, the least recently used first, shared by every rulebook in this
 * isolate (run_rules compiles its rulebook again whenever another call wrote). Bounded by
 * their programs' sizes: a compiled pattern takes about 0.2 KiB per instruction (both
 * compilations), and 200 characters can make a thousand instructions (`\pL{1000}`).
 */
const readings = new Map<string, { reading: PatternReading; weight: number }>();
const KEPT_INSTRUCTIONS = 100_000;
let keptInstructions = 0;

/** The pattern compiled, or why RE2 cannot read it (in plain words, naming the construct). Never throws. */
export function readPattern(source: string): PatternReading {
  const known = readings.get(source);
  if (known) {
    readings.delete(source);
    readings.set(source, known);
    return known.reading;
  }
  const reading = read(source);
  const weight = 1 + (reading.pattern?.regex.programSize() ?? 0);
  for (const [oldest, { weight: freed }] of readings) {
    if (keptInstructions + weight <= KEPT_INSTRUCTIONS) break;
    readings.delete(oldest);
    keptInstructions -= freed;
  }
  readings.set(source, { reading, weight });
  keptInstructions += weight;
  return reading;
}

function read(source: string): PatternReading {
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    return { problem: problemOf(error, source) };
  }
  const sensitive = caseSensitive(source);
  const whole = sensitive && !FLAG_GROUP.test(source) ? literalOf(sensitive) : null;
  return { pattern: { source, regex, texts: whole !== null ? [whole] : plainTexts(source), prefilter: prefilterOf(sensitive?.prefilter) } };
}

/**
 * The pattern compiled case-sensitively, for its literal structure: compiled
 * case-insensitively, every letter is a class and no literal is left. Every match of the
 * case-insensitive pattern holds, where the case-sensitive one would hold a literal, text
 * that folds as that literal does; parts the pattern itself marks `(?i)` have no literal,
 * and parts it marks `(?-i)` match a subset of what the folding admits.
 */
function caseSensitive(source: string): ReturnType<RE2JS["re2"]> | null {
  try {
    return RE2JS.compile(source).re2();
  } catch {
    return null;
  }
}

/**
 * The texts a pattern is nothing but, as alternatives: each alternative (at the top, or
 * in one group around the whole pattern) is plain text (`plainTextOf`), folding to ASCII.
 * A pattern with a flag group (which could make part of it case-sensitive) or a
 * `\Q...\E` quote (which could hold a `|`) is not split.
 */
function plainTexts(source: string): string[] | null {
  if (source.includes("\\Q")) return null;
  const body = withoutWrappingGroup(source);
  if (FLAG_GROUP.test(body)) return null;
  const texts: string[] = [];
  for (const alternative of topLevelAlternatives(body)) {
    const text = plainTextOf(alternative);
    if (text === null) return null;
    texts.push(text);
  }
  return texts;
}

/**
 * The folded ASCII text a pattern (no alternation at its top) is found where, or null: a
 * pattern whose program is a literal prefix and nothing more (RE2's own test for plain
 * text); or such text between optional groups (`(SQ \*)?BLUE BOTTLE`, `TRANSFER( #\d+)?`),
 * which change nothing where a pattern is looked for anywhere in the text, provided they
 * can match nothing in any place: they match the empty text, and hold no anchor or word
 * edge.
 */
function plainTextOf(pattern: string): string | null {
  const whole = literalText(pattern);
  if (whole !== null) return whole;
  const atoms = topLevelAtoms(pattern);
  if (atoms === null) return null;
  let first = 0;
  while (first < atoms.length && atoms[first]!.optionalGroup) first++;
  let last = atoms.length - 1;
  while (last > first && atoms[last]!.optionalGroup) last--;
  if (first >= atoms.length || (first === 0 && last === atoms.length - 1)) return null;
  const [from, to] = [atoms[first]!.from, atoms[last]!.to];
  if (!canVanish(pattern.slice(0, from)) || !canVanish(pattern.slice(to))) return null;
  return literalText(pattern.slice(from, to));
}

function literalText(pattern: string): string | null {
  const re2 = caseSensitive(pattern);
  return re2 === null ? null : literalOf(re2);
}

/** The folded ASCII text a compiled pattern is, when its program is a literal prefix and nothing more. */
function literalOf(re2: ReturnType<RE2JS["re2"]>): string | null {
  if (re2.prefixComplete !== true || typeof re2.prefix !== "string" || re2.prefix.length === 0) return null;
  const folded = foldForLiterals(re2.prefix);
  return NON_ASCII.test(folded) ? null : folded;
}

/** A group that sets flags (anything `(?` opens but `(?:`), anywhere (in a class too: erring towards "no"). */
const FLAG_GROUP = /\(\?(?!:)/;
/** An anchor, a word edge or a flag group, anywhere (likewise). */
const CONTEXTUAL = /[\^$]|\\[bBAz]|\(\?(?!:)/;

/** Whether a part of a pattern matches the empty text wherever it stands. */
function canVanish(part: string): boolean {
  if (part === "") return true;
  if (CONTEXTUAL.test(part)) return false;
  try {
    return RE2JS.compile(part).testExact("");
  } catch {
    return false;
  }
}

const QUANTIFIER = /^(?:[*+?]|\{\d*(?:,\d*)?\})\??/;
const OPTIONAL = /^(?:[*?]|\{0(?:,\d*)?\})\??$/;

/** The top level of a pattern as atoms (a character, an escape, a class or a group, each with its quantifier), or null where it cannot tell. */
function topLevelAtoms(pattern: string): { from: number; to: number; optionalGroup: boolean }[] | null {
  const atoms: { from: number; to: number; optionalGroup: boolean }[] = [];
  for (let i = 0; i < pattern.length; ) {
    const from = i;
    const group = pattern[i] === "(";
    if (pattern[i] === "\\") i += 2;
    else if (pattern[i] === "[") i = classEnd(pattern, i) + 1;
    else if (group) i = closingParen(pattern, i) + 1;
    else i++;
    if (i <= 0) return null;
    const quantifier = QUANTIFIER.exec(pattern.slice(i))?.[0] ?? "";
    i += quantifier.length;
    atoms.push({ from, to: i, optionalGroup: group && OPTIONAL.test(quantifier) });
  }
  return atoms;
}

/** The pattern without `(` or `(?:` and the `)` closing it, when they enclose all of it. */
function withoutWrappingGroup(source: string): string {
  const open = source.startsWith("(?:") ? 3 : source.startsWith("(") && !source.startsWith("(?") ? 1 : 0;
  if (open === 0 || !source.endsWith(")")) return source;
  return closingParen(source, 0) === source.length - 1 ? source.slice(open, -1) : source;
}

/** Where the group opened at `open` closes (escapes and classes skipped), or -1. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i++;
    else if (ch === "[") i = classEnd(source, i);
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
    if (i < 0) return -1;
  }
  return -1;
}

/** The pattern split at each `|` outside every group and class. */
function topLevelAlternatives(source: string): string[] {
  const alternatives: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i++;
    else if (ch === "[") i = classEnd(source, i);
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "|" && depth === 0) {
      alternatives.push(source.slice(from, i));
      from = i + 1;
    }
    if (i < 0) return [source]; // an unclosed class: the pattern as it is (it then is no plain text)
  }
  alternatives.push(source.slice(from));
  return alternatives;
}

/** The index of the `]` closing the class opened at `open` (a `]` first in it is a member), or -1. */
function classEnd(source: string, open: number): number {
  let i = open + 1;
  if (source[i] === "^") i++;
  if (source[i] === "]") i++;
  for (; i < source.length; i++) {
    if (source[i] === "\\") i++;
    else if (source[i] === "[" && source[i + 1] === ":") {
      const close = source.indexOf(":]", i + 2);
      if (close >= 0) i = close + 1;
    } else if (source[i] === "]") return i;
  }
  return -1;
}

const NON_ASCII = /[^\x00-\x7f]/;
/**
 * The shortest piece a prefilter names: shorter ones (a space, a `#`) are in nearly every
 * description, so watching them costs the automaton more than they rule out.
 */
const MIN_PIECE = 3;
const NON_ASCII_RUN = /[^\x00-\x7f]+/;

/** re2js's prefilter node types (src/Prefilter.js): EXACT 1, AND 2, OR 3. */
const EXACT = 1;
const AND = 2;
const OR = 3;

/**
 * re2js's prefilter (`re2().prefilter`): the required literal pieces of the simplified
 * parse tree, as AND and OR of strings. It is not in re2js's documented interface: a node
 * of another shape is read as "nothing known", which is always safe
 * (src/ledger/rules/pattern.test.ts checks the prefilter against plain matching).
 */
function prefilterOf(node: unknown, depth = 0): Prefilter | null {
  if (typeof node !== "object" || node === null || depth > 100) return null;
  const { type, str, subs } = node as { type?: unknown; str?: unknown; subs?: unknown };
  if (type === EXACT && typeof str === "string") {
    // Only ASCII text folds the same in the description and the piece; a non-ASCII character
    // splits the piece, and each ASCII run of it is still in every match.
    const runs = foldForLiterals(str).split(NON_ASCII_RUN).filter((run) => run.length >= MIN_PIECE);
    return runs.length === 0 ? null : runs.length === 1 ? runs[0]! : { all: runs };
  }
  if ((type === AND || type === OR) && Array.isArray(subs)) {
    const parts = subs.map((sub) => prefilterOf(sub, depth + 1));
    if (type === AND) {
      const known = parts.filter((p): p is Prefilter => p !== null);
      return known.length === 0 ? null : known.length === 1 ? known[0]! : { all: known };
    }
    if (parts.length === 0 || parts.some((p) => p === null)) return null;
    return parts.length === 1 ? parts[0]! : { any: parts as Prefilter[] };
  }
  return null;
}

/** Every piece a prefilter names. */
export function piecesOf(prefilter: Prefilter): string[] {
  if (typeof prefilter === "string") return [prefilter];
  return ("all" in prefilter ? prefilter.all : prefilter.any).flatMap(piecesOf);
}

/** Whether a text whose pieces `has` tells can hold a match. */
export function prefilterHolds(prefilter: Prefilter, has: (piece: string) => boolean): boolean {
  if (typeof prefilter === "string") return has(prefilter);
  return "all" in prefilter ? prefilter.all.every((p) => prefilterHolds(p, has)) : prefilter.any.some((p) => prefilterHolds(p, has));
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const FOLDED_TO_ASCII = /[A-Z\u017f\u212a]/g;
const foldOne = (ch: string) => (ch === "\u017f" ? "s" : ch === "\u212a" ? "k" : ch.toLowerCase());

/**
 * The case folding the literal fast paths compare in: ASCII letters lowercased, and the two
 * characters outside ASCII that RE2's case folding equates with an ASCII letter (U+017F
 * long s with "s", U+212A Kelvin sign with "k"; pattern.test.ts checks there are no
 * others) turned into it; everything else as it is. So for an ASCII piece of text p and
 * any text t, RE2 finds p case-insensitively in t exactly where the folded t contains the
 * folded p. One code unit for one, so positions are kept.
 */
export function foldForLiterals(text: string): string {
  return ASCII_ONLY.test(text) ? text.toLowerCase() : text.replace(FOLDED_TO_ASCII, foldOne);
}

/** What a pattern reads of a description: its first MAX_MATCHED_LENGTH code units, never half a surrogate pair. */
export function matchedPart(description: string): string {
  if (description.length <= MAX_MATCHED_LENGTH) return description;
  const last = description.charCodeAt(MAX_MATCHED_LENGTH - 1);
  const next = description.charCodeAt(MAX_MATCHED_LENGTH);
  const splitsPair = last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
  return description.slice(0, splitsPair ? MAX_MATCHED_LENGTH - 1 : MAX_MATCHED_LENGTH);
}

// --- why a pattern is refused ---

const SYNTAX = "RE2 syntax";

/** A refusal in plain words for what re2js threw, naming the construct where one is to blame. */
function problemOf(error: unknown, source: string): string {
  if (error instanceof RE2JSSyntaxException) {
    // re2js reads the flag as a `(?i)` in front of the pattern; the user wrote none.
    const fragment = error.input === null ? null : error.input.startsWith("(?i)") && !source.startsWith("(?i)") ? error.input.slice(4) : error.input;
    return syntaxProblem(error.error, fragment ?? "", source);
  }
  if (error instanceof RE2JSException) return `the pattern cannot be compiled: ${error.message}`;
  return `the pattern cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

const quoted = (text: string) => `\`${text}\``;

function syntaxProblem(kind: string, fragment: string, source: string): string {
  switch (kind) {
    case "invalid escape sequence":
      return escapeProblem(fragment);
    case "invalid or unsupported Perl syntax":
      return groupProblem(fragment, source);
    case "invalid named capture":
      if (fragment.startsWith("(?<=")) return lookaround("a lookbehind", "(?<=");
      if (fragment.startsWith("(?<!")) return lookaround("a negative lookbehind", "(?<!");
      return `the named group ${quoted(fragment.slice(0, 40))} is malformed: write \`(?P<name>...)\` or \`(?<name>...)\`, the name of letters, digits and underscores`;
    case "invalid nested repetition operator":
      if (/^(?:[*+?]|\{[^}]*\})\+$/.test(fragment)) {
        return `the possessive quantifier ${quoted(fragment)} is not in ${SYNTAX}: RE2 never backtracks, so it needs none; drop the last \`+\``;
      }
      return `the repetition ${quoted(fragment)} repeats a repetition, which ${SYNTAX} does not allow: write one quantifier, or group the inner repetition, as in \`(?:a{2}){3}\``;
    case "invalid repeat count":
      return repeatProblem(fragment);
    case "missing argument to repetition operator":
      return `the repetition operator ${quoted(fragment)} follows nothing it could repeat; write \`\\${fragment.charAt(0)}\` to match the character itself`;
    case "missing closing )":
      return "a group opened with `(` is never closed; write `\\(` to match the character itself";
    case "unexpected )":
      return "a `)` closes no group; write `\\)` to match the character itself";
    case "missing closing ]":
      return "a character class opened with `[` is never closed; write `\\[` to match the character itself";
    case "invalid character class range":
      if (/^\\[pP]/.test(fragment)) return `${quoted(fragment)} names no Unicode class RE2 knows (such as \`\\p{L}\`, \`\\p{Greek}\`, \`\\pN\`)`;
      return `the class range ${quoted(fragment)} runs backwards or between things that are not characters`;
    case "trailing backslash at end of expression":
      return "the pattern ends in a lone backslash; write `\\\\` to match one";
    case "duplicate capture group name":
      return `two groups are named ${quoted(fragment)}; a group's name must be unique`;
    case "expression nests too deeply":
      return "the pattern nests groups or repetitions more than 1,000 deep";
    case "expression too large":
      return "the pattern is too large for RE2 once its repetitions are expanded; use smaller counts";
    case "invalid capture in lookbehind":
      return lookaround("a lookbehind", "(?<=");
    default:
      return `the pattern is malformed: ${kind}${fragment ? ` (${quoted(fragment)})` : ""}`;
  }
}

function lookaround(name: string, syntax: string): string {
  return `${name} (${quoted(syntax)}) is not in ${SYNTAX}: a linear-time engine does not look around the match; match the text itself instead`;
}

function escapeProblem(escape: string): string {
  const letter = escape.charAt(1);
  if (/[1-9]/.test(letter)) {
    return `${quoted(escape)} is a backreference, which ${SYNTAX} does not have: a linear-time engine cannot match again what a group matched`;
  }
  if (letter === "k") return `\`\\k<name>\` is a named backreference, which ${SYNTAX} does not have: a linear-time engine cannot match again what a group matched`;
  if (letter === "u") return `\`\\u\` escapes are JavaScript, not ${SYNTAX}: write a code point as \`\\x{00E9}\``;
  if (letter === "c") return `\`\\c\` control escapes are not in ${SYNTAX}: write the character's code, as \`\\x{0A}\``;
  return `the escape ${quoted(escape)} is not in ${SYNTAX} (its escapes: \`\\d \\w \\s \\b \\pL \\x{..} \\Q..\\E\`, and a backslash before punctuation)`;
}

function groupProblem(fragment: string, source: string): string {
  if (fragment.startsWith("(?=")) return lookaround("a lookahead", "(?=");
  if (fragment.startsWith("(?!")) return lookaround("a negative lookahead", "(?!");
  if (fragment.startsWith("(?>")) return `an atomic group (\`(?>\`) is not in ${SYNTAX}: RE2 never backtracks, so it needs none; write \`(?:\``;
  if (fragment.startsWith("(?#")) return `a comment group (\`(?#\`) is not in ${SYNTAX}`;
  if (fragment.startsWith("(?|")) return `a branch reset group (\`(?|\`) is not in ${SYNTAX}; write \`(?:\``;
  // re2js names only `(?P` here: what follows it is in the pattern.
  if (fragment.startsWith("(?P") && source.includes("(?P=")) {
    return `\`(?P=name)\` is a named backreference, which ${SYNTAX} does not have: a linear-time engine cannot match again what a group matched`;
  }
  if (fragment.startsWith("(?P") && source.includes("(?P>")) return `a subroutine call (\`(?P>name)\`) is not in ${SYNTAX}`;
  if (fragment.startsWith("(?P")) return "a named group is malformed: write `(?P<name>...)` or `(?<name>...)`, the name of letters, digits and underscores";
  if (/^\(\?(?:&|R|[+-]?\d)/.test(fragment)) return `recursion and subroutine calls (${quoted(fragment)}) are not in ${SYNTAX}`;
  if (/^\(\?[a-zA-Z-]/.test(fragment)) return `the group ${quoted(fragment)} sets a flag RE2 does not have: its flags are \`i\`, \`m\`, \`s\` and \`U\`, as in \`(?s)\` or \`(?i:...)\``;
  return `the group ${quoted(fragment)} is not in ${SYNTAX}: a group is \`(...)\`, \`(?:...)\`, \`(?P<name>...)\`, \`(?<name>...)\` or sets flags`;
}

function repeatProblem(fragment: string): string {
  const counts = /^\{(\d*)(?:,(\d*))?\}$/.exec(fragment);
  if (counts && counts[2] !== undefined && counts[2] !== "" && Number(counts[1]) > Number(counts[2])) {
    return `the repetition ${quoted(fragment)} has its minimum above its maximum`;
  }
  return `the repetition ${quoted(fragment)} is over RE2's limit: a count is at most 1,000, and repetitions nested in one another 1,000 in all`;
}
