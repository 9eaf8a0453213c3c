/**
 * Why a line has its category (`explain_transaction`). The explanation is the line's
 * latest decision turned into evidence (citations) and one templated sentence rendered
 * from those citations alone. When there is nothing to cite, the sentence is empty and
 * `defect` reports the gap in fixed words; no reason is ever made up.
 *
 * A side-B row is the archived twin of an A line and shows that line's category, so it
 * is explained from the twin's decision.
 */
import { eq } from "drizzle-orm";
import { findRow, UNCATEGORISED, type Row, type Side } from "./reads";
import { headerOfCategory } from "./categories";
import type { LedgerHandle } from "../store/db";
import type { Face } from "../face";
import { latestDecision } from "./judgements";
import { personOfActor, type NotedPerson } from "./people";
import { bLines, type decisions } from "../store/schema";
import { noSuchLine, ok, type Outcome } from "../outcome";

/** A decision fact as stored (one row of `decisions`). */
export type Decision = typeof decisions.$inferSelect;

/** What decided the line; `none` when nothing has. */
export type Engine = Decision["engine"] | "none";

export interface RuleCitation {
  kind: "rule";
  rule_key: string;
  revision: number;
  /** What the rule decided. */
  category: string;
}

export interface HumanCitation {
  kind: "human";
  actor: string;
  /** The person a `person:<id>` actor names, as the ledger noted them; null for the owner's session or a token. */
  person: NotedPerson | null;
  /** When the judgement was made (for a carried one: when it was first made). */
  at: string;
  /** The verb, when the ledger recorded it. */
  op: Decision["op"];
  /** What the human decided; null = returned to the queue (unset). */
  category: string | null;
  /** The superseded line the judgement followed this line from. */
  carried_from: { side: "A"; src_id: number } | null;
}

export interface ModelCitation {
  kind: "model";
  model_version: string;
  /** 0..1. */
  confidence: number;
  category: string;
}

export interface DuhBandCitation {
  kind: "duh_band";
  /** The confidence (0..1) at or above which the local model decides by itself. */
  floor: number;
}

export interface TailCitation {
  kind: "tail";
  model_version: string;
  category: string;
}

export interface PocketCitation {
  kind: "pocket";
  category: string;
  header: "draw";
}

export type Citation = RuleCitation | HumanCitation | ModelCitation | DuhBandCitation | TailCitation | PocketCitation;

export interface Explanation {
  side: Side;
  src_id: number;
  /** The row's category as served (`uncategorised` = the queue). */
  category: string;
  engine: Engine;
  sentence: string;
  citations: Citation[];
  defect: string;
}

/** The line a sentence is about: an A line, or a B row and the A line it is the twin of. */
export interface Subject {
  side: Side;
  src_id: number;
  /** For side B: the A line it is the archived twin of. */
  twin_a_id: number | null;
}

export interface ExplanationOptions {
  /**
   * The local model's duh band floor (0..1). A model decision at or above it also cites
   * the band. Unknown until the model exists, so no band is cited by default.
   */
  duhBandFloor?: number | null;
  /** The person an actor names (`person:<id>`), to name who judged; none named by default. */
  personOf?: (actor: string) => NotedPerson | null;
}

const PPM = 1_000_000;

// --- citation builders: one decision row in, its evidence out (empty when the row lacks it) ---

export function ruleCitation(d: Decision): RuleCitation[] {
  if (d.engine !== "rule" || d.ruleKey === null || d.ruleRevision === null || d.category === null) return [];
  return [{ kind: "rule", rule_key: d.ruleKey, revision: d.ruleRevision, category: d.category }];
}

export function humanCitation(d: Decision, person: NotedPerson | null = null): HumanCitation[] {
  if (d.engine !== "human" || d.actor === null) return [];
  return [
    {
      kind: "human",
      actor: d.actor,
      person,
      at: d.decidedAt,
      op: d.op,
      category: d.category,
      carried_from: d.carriedFromAId === null ? null : { side: "A", src_id: d.carriedFromAId },
    },
  ];
}

/**
 * The model's citation and, when its confidence reaches the duh band's floor, the band's.
 * The floor is the one stored on the decision (in force when the model decided); the
 * argument serves only decisions that carry none.
 */
export function modelCitations(d: Decision, duhBandFloor: number | null = null): (ModelCitation | DuhBandCitation)[] {
  const confidence = confidenceOf(d.confidence);
  if (d.engine !== "model" || d.modelVersion === null || confidence === null || d.category === null) return [];
  const model: ModelCitation = { kind: "model", model_version: d.modelVersion, confidence, category: d.category };
  const floor = confidenceOf(d.bandFloorPpm) ?? duhBandFloor;
  return floor !== null && confidence >= floor ? [model, { kind: "duh_band", floor }] : [model];
}

export function tailCitation(d: Decision): TailCitation[] {
  if (d.engine !== "tail" || d.modelVersion === null || d.category === null) return [];
  return [{ kind: "tail", model_version: d.modelVersion, category: d.category }];
}

/** The owner add-back list: a category under the `draw` header. */
export function pocketCitation(category: string): PocketCitation {
  return { kind: "pocket", category, header: "draw" };
}

/** Parts per million -> 0..1; null when absent or out of range (then nothing is cited). */
export function confidenceOf(ppm: number | null): number | null {
  if (ppm === null || !Number.isInteger(ppm) || ppm < 0 || ppm > PPM) return null;
  return ppm / PPM;
}

/** The evidence of one decision, by its engine. */
export function decisionCitations(d: Decision, options: ExplanationOptions = {}): Citation[] {
  switch (d.engine) {
    case "rule":
      return ruleCitation(d);
    case "human":
      return humanCitation(d, d.actor === null ? null : (options.personOf?.(d.actor) ?? null));
    case "model":
      return modelCitations(d, options.duhBandFloor ?? null);
    case "tail":
      return tailCitation(d);
  }
}

// --- the sentence: a rendering of the citations, nothing else ---

function nameOf(subject: Subject): string {
  return subject.side === "B" && subject.twin_a_id !== null
    ? `B:${subject.src_id}, the archived twin of A:${subject.twin_a_id},`
    : `${subject.side}:${subject.src_id}`;
}

function decidedClause(c: Citation): string | null {
  switch (c.kind) {
    case "rule":
      return `is ${c.category} by rule ${c.rule_key} (revision ${c.revision})`;
    case "human": {
      const what = c.category === null ? "was returned to the queue" : `is ${c.category}`;
      const via = c.op === null ? "" : ` via ${c.op}`;
      const carried = c.carried_from === null ? "" : `, carried from ${c.carried_from.side}:${c.carried_from.src_id}`;
      const who = c.person === null ? c.actor : `${c.person.name} (${c.actor})`;
      return `${what} by ${who}${via} on ${c.at}${carried}`;
    }
    case "model":
      return `is ${c.category} by model ${c.model_version} at confidence ${c.confidence}`;
    case "tail":
      return `is ${c.category} by the external model ${c.model_version}`;
    default:
      return null;
  }
}

/**
 * Exactly one sentence, made only from the citations (and the name of the line they are
 * about); "" when there is nothing to cite.
 */
export function renderSentence(subject: Subject, citations: readonly Citation[]): string {
  if (citations.length === 0) return "";
  const decider = citations.map(decidedClause).find((clause) => clause !== null);
  const band = citations.find((c): c is DuhBandCitation => c.kind === "duh_band");
  const pocket = citations.find((c): c is PocketCitation => c.kind === "pocket");
  let sentence = `${nameOf(subject)} ${decider ?? (pocket ? `is ${pocket.category}` : "is cited")}`;
  if (band) sentence += `, within the duh band (floor ${band.floor})`;
  if (pocket) sentence += `; ${pocket.category} is under the ${pocket.header} header, so the line is on the owner add-back list`;
  return `${sentence}.`;
}

// --- the gap, when nothing can be cited ---

function whereItWaits(state: Row["state"] | undefined): string {
  switch (state) {
    case "in books":
    case "pending":
      return "; it waits in the exceptions queue";
    case "superseded":
    case "retracted":
      return `; it is ${state}, so it is in no exceptions queue`;
    default:
      return "";
  }
}

/** The reported gap: fixed words about what is missing, never a reason. */
export function renderDefect(subject: Subject, decided: Decision | undefined, state: Row["state"] | undefined): string {
  const line =
    subject.side === "B" && subject.twin_a_id !== null
      ? `A:${subject.twin_a_id}, of which B:${subject.src_id} is the archived twin`
      : `${subject.side}:${subject.src_id}`;
  if (!decided) return `No rule, judgement or model has decided ${line}${whereItWaits(state)}.`;
  return `The latest decision on ${line} (op ${decided.seq}, engine ${decided.engine}) records no evidence that can be cited.`;
}

/** Explains a line the face serves. */
export function explanationOf(db: LedgerHandle, face: Face, side: Side, srcId: number, options: ExplanationOptions = {}): Outcome<Explanation> {
  const row = findRow(db, face, side, srcId);
  if (!row) return noSuchLine(side, srcId);
  const twin = side === "B" ? db.select({ aId: bLines.twinAId }).from(bLines).where(eq(bLines.id, srcId)).get() : undefined;
  if (side === "B" && !twin) return noSuchLine(side, srcId);
  const aId = twin?.aId ?? srcId;
  const subject: Subject = { side, src_id: srcId, twin_a_id: twin?.aId ?? null };

  const decided = latestDecision(db, aId);
  const citations = decided ? decisionCitations(decided, { personOf: (actor) => personOfActor(db, actor), ...options }) : [];
  // The pocket is cited beside the decider, never in place of it.
  if (decided?.category && citations.length > 0 && headerOfCategory(db, decided.category) === "draw") {
    citations.push(pocketCitation(decided.category));
  }
  // The A line's state says where an undecided line waits (for B: its twin's, on this face).
  const state = side === "A" ? row.state : findRow(db, face, "A", aId)?.state;
  return ok({
    side,
    src_id: srcId,
    category: row.category ?? UNCATEGORISED,
    engine: decided?.engine ?? "none",
    sentence: renderSentence(subject, citations),
    citations,
    defect: citations.length === 0 ? renderDefect(subject, decided, state) : "",
  });
}
