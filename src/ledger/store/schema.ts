/**
 * The tenant's ledger: SQLite inside its Durable Object.
 *
 * Every ledger table here is append-only (APPEND_ONLY_TABLES). Migration 0001 installs
 * triggers that refuse UPDATE and DELETE on each of them, so "nothing is edited or
 * deleted" is a property of the database, not a convention. A line's state, category and
 * visibility are derived from the facts appended here: relation C, defined by the
 * `c_rows_derived` view and read from `c_rows`, `c_totals` and `c_words`, copies kept by
 * triggers (DERIVED_TABLES). The local model's evidence is kept beside them (MODEL_TABLES).
 */
import { desc, sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, sqliteView, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * A bank connection the feed is pulled from: one item (one institution's login) at the
 * aggregator, or the sandbox bank. What happens to it later (disconnected, a login the
 * bank wants again) is appended to `bank_connection_events`.
 */
export const bankConnections = sqliteTable("bank_connections", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  provider: text("provider", { enum: ["sandbox", "aggregator"] }).notNull(),
  /**
   * The provider's access token for this connection, encrypted by the Worker before it gets
   * here (src/banks/bank-tokens.ts); empty for the sandbox bank of a sandbox sign-up. A
   * re-encryption under a newer key is appended to `bank_connection_tokens`.
   */
  accessToken: text("access_token").notNull().default(""),
  connectedAt: text("connected_at").notNull(),
  /** The provider's id of the item; null for the sandbox bank of a sandbox sign-up. */
  itemId: text("item_id"),
  /** The institution's name as the provider gave it at linking; null when it gave none. */
  institution: text("institution"),
});

export const CONNECTION_STATUSES = ["connected", "login_required", "error", "disconnected"] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** A connection's status changes; its newest event is its status (`connected` before any). `disconnected` is final. */
export const bankConnectionEvents = sqliteTable(
  "bank_connection_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    connectionId: integer("connection_id").notNull(),
    status: text("status", { enum: CONNECTION_STATUSES }).notNull(),
    /** Why, in words (the provider's error code and message, or who disconnected it). */
    detail: text("detail").notNull(),
    actor: text("actor").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("bank_connection_events_connection").on(t.connectionId, t.id)],
);

/** A connection's access token encrypted again (under the newest key); the newest row is the token. */
export const bankConnectionTokens = sqliteTable(
  "bank_connection_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    connectionId: integer("connection_id").notNull(),
    accessToken: text("access_token").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("bank_connection_tokens_connection").on(t.connectionId, t.id)],
);

/** The ledger's opening: whose books these are, written by the sign-up's first call (one row). */
export const ledgerOpening = sqliteTable("ledger_opening", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  tenant: text("tenant").notNull(),
  openedAt: text("opened_at").notNull(),
});

/** One applied page of an incremental sync. The pair of cursors makes a replay a no-op. */
export const feedPages = sqliteTable(
  "feed_pages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    connectionId: integer("connection_id").notNull(),
    cursorBefore: text("cursor_before").notNull(),
    cursorAfter: text("cursor_after").notNull(),
    appliedAt: text("applied_at").notNull(),
  },
  (t) => [uniqueIndex("feed_pages_cursor_pair").on(t.connectionId, t.cursorBefore, t.cursorAfter)],
);

/**
 * A feed page closed: its new lines, with the decisions the rules and the local model
 * made of them in the same transaction, enter relation C together (a trigger, migration
 * 0015), so a line's row is written once with its category rather than written bare and
 * then changed. Every page is closed in the transaction that applies it, so its time is
 * the page's `applied_at`.
 */
export const feedPageCloses = sqliteTable("feed_page_closes", {
  pageId: integer("page_id").primaryKey(),
});

/** Revisions of sub-account records as the feed delivered them; the newest wins. */
export const feedAccounts = sqliteTable(
  "feed_accounts",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    accountId: text("account_id").notNull(),
    name: text("name").notNull(),
    mask: text("mask"),
    type: text("type"),
    subtype: text("subtype"),
    arrivedAt: text("arrived_at").notNull(),
  },
  (t) => [index("feed_accounts_account").on(t.accountId, t.seq)],
);

/** Side A: the feed's lines. `id` is the line's `src_id`. */
export const aLines = sqliteTable(
  "a_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    transactionId: text("transaction_id").notNull(),
    accountId: text("account_id").notNull(),
    postedOn: text("posted_on").notNull(),
    authorizedOn: text("authorized_on"),
    description: text("description").notNull(),
    merchantName: text("merchant_name"),
    /** Signed from the business's side: positive = money in. */
    amountCents: integer("amount_cents").notNull(),
    pending: integer("pending", { mode: "boolean" }).notNull(),
    pendingTransactionId: text("pending_transaction_id"),
    /** How the line arrived: a new transaction, or a modification of an earlier line. */
    arrival: text("arrival", { enum: ["added", "modified"] }).notNull(),
    /** The provider's record, verbatim (JSON). */
    raw: text("raw").notNull(),
    pageId: integer("page_id").notNull(),
    arrivedAt: text("arrived_at").notNull(),
  },
  (t) => [
    index("a_lines_transaction").on(t.transactionId, t.id),
    index("a_lines_posted").on(t.postedOn),
    index("a_lines_account").on(t.accountId),
  ],
);

/** Side B: archived twins, one per duplicate arrival of a transaction id. */
export const bLines = sqliteTable(
  "b_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    twinAId: integer("twin_a_id").notNull(),
    transactionId: text("transaction_id").notNull(),
    accountId: text("account_id").notNull(),
    postedOn: text("posted_on").notNull(),
    description: text("description").notNull(),
    amountCents: integer("amount_cents").notNull(),
    raw: text("raw").notNull(),
    pageId: integer("page_id").notNull(),
    arrivedAt: text("arrived_at").notNull(),
  },
  (t) => [index("b_lines_twin").on(t.twinAId), index("b_lines_posted").on(t.postedOn)],
);

/** What happened to an A line after it arrived: superseded by a successor, or retracted. */
export const lineEvents = sqliteTable(
  "line_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    aId: integer("a_id").notNull(),
    kind: text("kind", { enum: ["superseded", "retracted"] }).notNull(),
    /** The successor, for `superseded`. */
    byAId: integer("by_a_id"),
    pageId: integer("page_id").notNull(),
    at: text("at").notNull(),
  },
  (t) => [uniqueIndex("line_events_once").on(t.aId, t.kind), index("line_events_by").on(t.byAId)],
);

/**
 * Decision facts about a line's category; the latest one is the line's category.
 * A null category is a decision that the line has none (the queue).
 */
export const decisions = sqliteTable(
  "decisions",
  {
    /** The op sequence number. */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    aId: integer("a_id").notNull(),
    category: text("category"),
    engine: text("engine", { enum: ["human", "rule", "model", "tail"] }).notNull(),
    /** For a human: `human:<tenant>` (the owner's session), `person:<id>` (a person's session) or `token:<tenant>:<kid>`. */
    actor: text("actor"),
    /** The human verb that made the decision (null for rules and models). */
    op: text("op", { enum: ["categorize", "label", "adjudicate"] }),
    ruleKey: text("rule_key"),
    ruleRevision: integer("rule_revision"),
    modelVersion: text("model_version"),
    confidence: integer("confidence_ppm"),
    /** The duh band's floor (ppm) in force when the local model decided. */
    bandFloorPpm: integer("band_floor_ppm"),
    /** Set when a human judgement followed the line from a superseded predecessor. */
    carriedFromAId: integer("carried_from_a_id"),
    /** When the judgement was made (for a carried one: when it was first made). */
    decidedAt: text("decided_at").notNull(),
    recordedAt: text("recorded_at").notNull(),
  },
  (t) => [
    index("decisions_line").on(t.aId, t.seq),
    // A person's decisions made just now (not carried from a superseded line): what the local
    // model must learn before it decides again, read since its marks without the rules' many.
    index("decisions_by_person").on(t.seq).where(sql.raw(`engine = 'human' AND carried_from_a_id IS NULL`)),
  ],
);

/**
 * The rulebook. Every change to a rule appends a revision; the newest revision of a key
 * is the rule as it stands (a retired one decides nothing but stays listed).
 */
export const ruleRevisions = sqliteTable(
  "rule_revisions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ruleKey: text("rule_key").notNull(),
    revision: integer("revision").notNull(),
    matchKind: text("match_kind", { enum: ["description_exact", "description_regex", "amount_sign"] }).notNull(),
    matchValue: text("match_value").notNull(),
    category: text("category").notNull(),
    /** Lower decides first; ties by key. */
    priority: integer("priority").notNull(),
    retired: integer("retired", { mode: "boolean" }).notNull(),
    /** The exception an adjudication minted this rule from; null for create-rule. */
    bornFromAId: integer("born_from_a_id"),
    actor: text("actor").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("rule_revisions_key_revision").on(t.ruleKey, t.revision)],
);

/** Training labels: what the books should have said, with the op that moved the line. */
export const labels = sqliteTable(
  "labels",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    aId: integer("a_id").notNull(),
    /** Null = the queue (the label says the line has no category). */
    category: text("category"),
    /** The category the ledger held before, derived from the decisions, never from the caller. */
    oldCategory: text("old_category"),
    reason: text("reason"),
    actor: text("actor").notNull(),
    opSeq: integer("op_seq").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("labels_line").on(t.aId)],
);

/** The five headers of every tenant's chart (seeded by migration 0003). */
export const headers = sqliteTable("headers", {
  key: text("key", { enum: ["cogs", "expense", "income", "draw", "transfer"] }).primaryKey(),
  name: text("name").notNull(),
  sortOrder: integer("sort_order").notNull(),
});

/** The tenant's taxonomy: revisions of category entries; the newest per `cat_key` stands. */
export const categoryEntries = sqliteTable(
  "category_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    catKey: text("cat_key").notNull(),
    name: text("name").notNull(),
    headerKey: text("header_key", { enum: ["cogs", "expense", "income", "draw", "transfer"] }).notNull(),
    retired: integer("retired", { mode: "boolean" }).notNull(),
    actor: text("actor").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("category_entries_key").on(t.catKey, t.id)],
);

/**
 * Lines sent to the external model (the tail) and what it answered. A line is asked once:
 * an abstention (null answer) is remembered here, not as a decision, so a rule or a
 * person can still decide the line later.
 */
export const tailAsks = sqliteTable(
  "tail_asks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    aId: integer("a_id").notNull(),
    model: text("model").notNull(),
    /** The category it answered, or null for an abstention. */
    answer: text("answer"),
    askedAt: text("asked_at").notNull(),
  },
  (t) => [index("tail_asks_line").on(t.aId)],
);

/**
 * Parity verdicts: one per day, compared with an outside reference report (the oracle).
 * Filing the same day again appends the next revision; the newest revision is the day's.
 */
export const parityVerdicts = sqliteTable(
  "parity_verdicts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    asOf: text("as_of").notNull(),
    revision: integer("revision").notNull(),
    /** The verdict as served (JSON). */
    verdict: text("verdict").notNull(),
    /** The oracle report it was computed against (JSON), so it can be recomputed later. */
    oracle: text("oracle").notNull(),
    /**
     * Where the daily run fetched the oracle (its address without query or fragment); null
     * for a verdict a caller filed with the report in hand (`record_pnl_parity`).
     */
    oracleUrl: text("oracle_url"),
    actor: text("actor").notNull(),
    filedAt: text("filed_at").notNull(),
  },
  (t) => [uniqueIndex("parity_verdicts_day_revision").on(t.asOf, t.revision)],
);

/**
 * The daily run's parity part, recorded once per run (its scheduled time): `filed`, with the
 * revision of the verdict it filed in the same transaction, or `failed`, with why no verdict
 * was filed (the oracle's answer, or the job queue giving up on the day). A run recorded
 * for a scheduled time is not run again.
 */
export const oracleRuns = sqliteTable(
  "oracle_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The daily run's scheduled time (ISO 8601, UTC). */
    ranAt: text("ran_at").notNull(),
    /** The day of the verdict filed, or of the one that was not: the oracle's own `as_of` when it answered one, else the run's day. */
    asOf: text("as_of").notNull(),
    status: text("status", { enum: ["filed", "failed"] }).notNull(),
    /** The verdict's revision, for `filed`. */
    revision: integer("revision"),
    /** Why no verdict was filed, for `failed`. */
    error: text("error"),
    /** The oracle source's address, without its query or fragment. */
    oracleUrl: text("oracle_url").notNull(),
    actor: text("actor").notNull(),
    recordedAt: text("recorded_at").notNull(),
  },
  (t) => [uniqueIndex("oracle_runs_ran_at").on(t.ranAt), index("oracle_runs_day").on(t.asOf)],
);

/** A request that the watcher pull the bank feed. */
export const syncRequests = sqliteTable("sync_requests", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  actor: text("actor").notNull(),
  requestedAt: text("requested_at").notNull(),
});

/** One attempt of the watcher at a request, appended when the attempt ends. */
export const syncRuns = sqliteTable(
  "sync_runs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    requestId: integer("request_id").notNull(),
    attempt: integer("attempt").notNull(),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at").notNull(),
    pages: integer("pages").notNull(),
    added: integer("added").notNull(),
    modified: integer("modified").notNull(),
    removed: integer("removed").notNull(),
    duplicates: integer("duplicates").notNull(),
    status: text("status", { enum: ["ok", "failed"] }).notNull(),
    /** True when no further attempt will be made for the request. */
    final: integer("final", { mode: "boolean" }).notNull(),
    error: text("error"),
  },
  (t) => [index("sync_runs_request").on(t.requestId)],
);

/**
 * Exports: a rendered bundle (no destination) or a resync op pushing the books to a
 * spreadsheet destination. Each holds the ledger's high-water marks at the moment it was
 * made, so its files are rendered later from the append-only tables exactly as they were
 * then: a line, event, decision, taxonomy entry or account record past a mark is not seen.
 */
export const exports = sqliteTable("exports", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** Null for a bundle; the destination (an id in the D1 index) for a resync op. */
  destinationId: integer("destination_id"),
  /** Whether the destination list was read: `known` or `unreadable`. */
  destinations: text("destinations", { enum: ["known", "unreadable"] }).notNull(),
  maxAId: integer("max_a_id").notNull(),
  maxEventId: integer("max_event_id").notNull(),
  maxDecisionSeq: integer("max_decision_seq").notNull(),
  maxCategoryEntryId: integer("max_category_entry_id").notNull(),
  maxAccountSeq: integer("max_account_seq").notNull(),
  /** The face's floor when it was made (lines posted before it were not on the face). */
  floor: text("floor"),
  transactions: integer("transactions").notNull(),
  accounts: integer("accounts").notNull(),
  actor: text("actor").notNull(),
  createdAt: text("created_at").notNull(),
});

/** One attempt of the queue job at pushing a resync op to its destination. */
export const exportPushes = sqliteTable(
  "export_pushes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    exportId: integer("export_id").notNull(),
    attempt: integer("attempt").notNull(),
    status: text("status", { enum: ["pushed", "failed"] }).notNull(),
    /** Rows written to the destination (the header row excluded). */
    rows: integer("rows").notNull(),
    /** True when no further attempt will be made. */
    final: integer("final", { mode: "boolean" }).notNull(),
    error: text("error"),
    at: text("at").notNull(),
  },
  (t) => [index("export_pushes_export").on(t.exportId)],
);

/**
 * The message thread with the customer. An inbound text lands as `in`; a reply is drafted
 * as `out` and stays invisible until a person releases it, which sends it; a notice (what
 * the service tells the owner itself, such as a parity mismatch) is `out` and listed at once.
 */
export const messages = sqliteTable("messages", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  direction: text("direction", { enum: ["in", "out"] }).notNull(),
  /** `sms`: texted (or to be); `notice`: a notice posted to the thread only, never texted. */
  channel: text("channel", { enum: ["sms", "notice"] }).notNull(),
  body: text("body").notNull(),
  /** For an inbound text: the carrier's id of it. */
  providerSid: text("provider_sid"),
  /** Who drafted a reply, the sender's phone for an inbound text, or `service` for a notice. */
  actor: text("actor").notNull(),
  createdAt: text("created_at").notNull(),
});

/**
 * What happened to a text going out, the newest being its status: a drafted reply released,
 * or a notice to be texted (`sending`), then `sent` or `failed`.
 */
export const messageEvents = sqliteTable(
  "message_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    messageId: integer("message_id").notNull(),
    status: text("status", { enum: ["sending", "sent", "failed"] }).notNull(),
    providerSid: text("provider_sid"),
    error: text("error"),
    actor: text("actor").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("message_events_message").on(t.messageId, t.id)],
);

/**
 * The books' currency: revisions, the newest stands; none means US dollars
 * (`DEFAULT_BOOKS_CURRENCY`). A line the bank gave in another currency is kept and listed,
 * flagged, and left out of the P&L (docs/decisions.md, "Reports and parity").
 */
export const booksCurrency = sqliteTable("books_currency", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  /** An ISO 4217 code, upper case. */
  currency: text("currency").notNull(),
  actor: text("actor").notNull(),
  setAt: text("set_at").notNull(),
});

/**
 * The tenant's choice of the shared merchant prior (src/ledger/model/shared-prior.ts):
 * revisions, the newest stands; none means the tenant has not opted in.
 */
export const sharedPriorChoices = sqliteTable("shared_prior_choices", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  optedIn: integer("opted_in", { mode: "boolean" }).notNull(),
  actor: text("actor").notNull(),
  chosenAt: text("chosen_at").notNull(),
});

/**
 * The pooled shared merchant prior as the daily run last handed it to this tenant: a copy
 * of what the index pools (src/index-db/shared-prior.ts), replaced whole, so the model
 * reads it after a restart without a read of the index.
 */
export const sharedPriorWords = sqliteTable("shared_prior_words", {
  word: text("word").primaryKey(),
  tenants: integer("tenants").notNull(),
  /** The mean agreement, in millionths. */
  agreementPpm: integer("agreement_ppm").notNull(),
  /** The category's shared name that at least five of the tenants file the word under; null where none. */
  category: text("category"),
  /** How many tenants file it there (0 without a category). */
  categoryTenants: integer("category_tenants").notNull().default(0),
  /** How many of the word's tenants have a category of that name (0 without a category). */
  namingTenants: integer("naming_tenants").notNull().default(0),
});

/**
 * The people named in this ledger's actors (`person:<id>`): their name and email as they
 * were when the person took a seat in the tenant, so that an explanation names who judged
 * without a read of the index. Noted once per person.
 */
export const people = sqliteTable("people", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  personId: text("person_id").notNull().unique(),
  name: text("name").notNull(),
  email: text("email").notNull(),
  notedAt: text("noted_at").notNull(),
});

/** Tables whose rows can never be updated or deleted (triggers in migrations 0001, 0003, 0006, 0008, 0010, 0012, 0023, 0025, 0028 and 0031). */
export const APPEND_ONLY_TABLES = [
  "bank_connections",
  "bank_connection_events",
  "bank_connection_tokens",
  "ledger_opening",
  "feed_pages",
  "feed_page_closes",
  "feed_accounts",
  "a_lines",
  "b_lines",
  "line_events",
  "decisions",
  "sync_requests",
  "sync_runs",
  "rule_revisions",
  "labels",
  "headers",
  "category_entries",
  "tail_asks",
  "parity_verdicts",
  "oracle_runs",
  "exports",
  "export_pushes",
  "messages",
  "message_events",
  "books_currency",
  "people",
  "shared_prior_choices",
] as const;

/** A line's states in relation C (docs/decisions.md, "Bank feed and sync"). */
const LINE_STATES = ["in books", "pending", "superseded", "retracted", "archived"] as const;

const relationCColumns = {
  side: text("side", { enum: ["A", "B"] }).notNull(),
  srcId: integer("src_id").notNull(),
  transactionId: text("transaction_id").notNull(),
  accountId: text("account_id").notNull(),
  postedOn: text("posted_on").notNull(),
  description: text("description").notNull(),
  amountCents: integer("amount_cents").notNull(),
  category: text("category"),
  state: text("state", { enum: LINE_STATES }).notNull(),
  excludeReason: text("exclude_reason").notNull(),
  /**
   * The currency the bank gave the line in (its `iso_currency_code`, else its
   * `unofficial_currency_code`), upper case; null when it named none, which the books
   * take as their own currency.
   */
  currency: text("currency"),
  /**
   * What decided the line: its latest decision's engine (a side-B row: its twin's); null
   * while nothing has. The rules, the model and the tail decide only lines nothing has
   * decided, so after them only a person's decision changes it.
   */
  engine: text("engine", { enum: ["human", "rule", "model", "tail"] }),
};

/**
 * Relation C as derived: every row the service can serve, side A and side B, with its
 * state, category and exclusion reason computed from the facts. The definition
 * (migration 0001, renamed in 0013); too slow to read at 100,000 lines, so the service
 * reads its maintained copy, `c_rows`, and tests hold the two equal.
 */
export const cRowsDerived = sqliteView("c_rows_derived", relationCColumns).existing();

/**
 * The rows of relation C in the exceptions queue: no category, in books or pending (side B
 * is always archived). A query that would use the queue's index (`c_rows_queue`, every row
 * with no category) repeats it as written, since SQLite proves a partial index usable from
 * literal terms; the states are columns of the index's entries.
 */
export const EXCEPTION_STATES = ["in books", "pending"] as const satisfies readonly (typeof LINE_STATES)[number][];
export const EXCEPTIONS_QUEUE = `category IS NULL AND ${anyOf("state", EXCEPTION_STATES)}`;

/** The conditions of relation C's two category indexes: every row is in one of them. */
const CATEGORISED = "category IS NOT NULL";
const UNCATEGORISED_ROW = "category IS NULL";

/**
 * The rows of relation C decided by anything but a rule: a partial index's condition (as
 * `EXCEPTIONS_QUEUE`, repeated as written by a query that would use it). Lines a rule
 * decided stay out, so `run_rules` writes no entry of it; they are most of a book, and a
 * search for them walks the list order.
 */
export const DECIDED_NOT_BY_RULE = anyOf("engine", ["human", "model", "tail"]);

/**
 * `column = 'a' OR column = 'b' ...`: a partial index's condition that a column holds one
 * of a few values. Not `IN (...)`: SQLite checks a partial index's condition on every
 * row an UPDATE of its columns touches, and builds an `IN` list's lookup table afresh
 * for each (a 100,000-line `run_rules` paid about a quarter of a second for it).
 */
function anyOf(column: string, values: readonly string[]): string {
  return `(${values.map((value) => `${column} = '${value}'`).join(" OR ")})`;
}

/**
 * Relation C, maintained: one row per line, kept equal to `c_rows_derived` by triggers
 * on the facts (migration 0013) in the same statement that appends each fact. Derived,
 * so it is not append-only: a line's state and category change as facts arrive. Indexed
 * for the list order and its filters; stored WITHOUT ROWID (by its key), which drizzle
 * cannot say, so migration 0013 does.
 */
export const cRows = sqliteTable(
  "c_rows",
  relationCColumns,
  (t) => [
    primaryKey({ columns: [t.side, t.srcId] }),
    // The list order; its trailing columns cover the counts and sums over a date range. The
    // category stays out of it, and each row is in exactly one of the two indexes below (by
    // whether it has a category), so a line's first decision writes one entry into
    // `c_rows_category` and drops one from `c_rows_queue`, nothing more.
    index("c_rows_order").on(desc(t.postedOn), t.side, desc(t.srcId), t.state, t.amountCents),
    index("c_rows_category").on(t.category, desc(t.postedOn), t.side, desc(t.srcId)).where(sql.raw(CATEGORISED)),
    // The rows with no category in list order, alone: the exceptions queue (whose states the
    // entries carry) and the queue label's list. A deep page skips index entries, not rows.
    // It carries the columns of the queue's condition too, without which SQLite does not count
    // it covering and reads each entry's row (checked in the query plan).
    index("c_rows_queue").on(desc(t.postedOn), t.side, desc(t.srcId), t.category, t.state).where(sql.raw(UNCATEGORISED_ROW)),
    // A search by engine, in list order, for the engines that decide fewer lines than the rules.
    index("c_rows_engine").on(t.engine, desc(t.postedOn), t.side, desc(t.srcId)).where(sql.raw(DECIDED_NOT_BY_RULE)),
  ],
);

/** Running figures: lines and cents per account, state and category. */
function runningFigureColumns() {
  return {
    accountId: text("account_id").notNull(),
    state: text("state", { enum: LINE_STATES }).notNull(),
    queued: integer("queued", { mode: "boolean" }).notNull(),
    category: text("category").notNull(),
    lines: integer("lines").notNull(),
    amountCents: integer("amount_cents").notNull(),
  };
}

/**
 * Running figures of `c_rows` per account, state and category, kept by triggers on
 * `c_rows` (migration 0013), so counts and totals read a few rows, not the books.
 * `queued` is 1 for lines with no category (then `category` is '').
 */
export const cTotals = sqliteTable("c_totals", runningFigureColumns(), (t) => [
  primaryKey({ columns: [t.accountId, t.state, t.queued, t.category] }),
]);

/**
 * The paid floor whose figures `c_floor_totals` keeps: one row at most. A tenant's floor is
 * stored at sign-up and never moves; the ledger learns it from the face of the first read
 * that needs it (`keepFiguresBefore`, books.ts).
 */
export const cFloor = sqliteTable("c_floor", {
  floor: text("floor").primaryKey(),
});

/**
 * `c_totals` for the rows posted before the paid floor (`c_floor`), kept by triggers on
 * `c_rows` (migration 0017): a face with that floor reads the running figures minus these,
 * a few rows either way, however much history lies before the floor.
 */
export const cFloorTotals = sqliteTable("c_floor_totals", runningFigureColumns(), (t) => [
  primaryKey({ columns: [t.accountId, t.state, t.queued, t.category] }),
]);

/**
 * Calendar-month figures of `c_rows` per state, kept by triggers on `c_rows` (migration
 * 0016), so the auditor view's months read a few rows, not the books. A row's month is
 * `substr(posted_on, 1, 7)`; money in and money out are summed apart, out as a positive
 * number.
 */
export const cMonthTotals = sqliteTable(
  "c_month_totals",
  {
    month: text("month").notNull(),
    state: text("state", { enum: LINE_STATES }).notNull(),
    lines: integer("lines").notNull(),
    moneyInCents: integer("money_in_cents").notNull(),
    moneyOutCents: integer("money_out_cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.state] })],
);

/**
 * Daily figures of `c_rows` per state, category and currency, kept by triggers on `c_rows`
 * (migration 0025), so the P&L's numbers read a few rows per day of its windows, not the
 * lines. `queued` is 1 for lines with no category (then `category` is ''); `currency` is
 * '' where the bank named none.
 */
export const cDayTotals = sqliteTable(
  "c_day_totals",
  {
    state: text("state", { enum: LINE_STATES }).notNull(),
    postedOn: text("posted_on").notNull(),
    queued: integer("queued", { mode: "boolean" }).notNull(),
    category: text("category").notNull(),
    currency: text("currency").notNull(),
    /** The lines' engine (`c_rows.engine`); '' where nothing decided them. */
    engine: text("engine").notNull(),
    lines: integer("lines").notNull(),
    amountCents: integer("amount_cents").notNull(),
  },
  // Keyed by category before day: the P&L reads its labels' days (the labels from `c_totals`),
  // the auditor view its draw categories' days, each a range of the key. The engine is last:
  // a category's lines of a day mostly share one, so it adds few rows.
  (t) => [primaryKey({ columns: [t.state, t.category, t.postedOn, t.queued, t.currency, t.engine] })],
);

/**
 * A mark that holds one row only while run-rules appends a slice's decisions
 * (`appendDecisionsOfRows`, books/machine-decisions.ts), and none that a read can see.
 * While it holds one, the triggers that keep `c_totals`, `c_floor_totals` and
 * `c_day_totals` row by row stand aside for side-A rows, and the slice keeps those figures
 * itself, grouped (migration 0039).
 */
export const cFiguresByBatch = sqliteTable("c_figures_by_batch", {
  held: integer("held").primaryKey(),
});

/**
 * Tables derived from the append-only ones, kept by triggers; never written by the domain
 * code but for the batch mark (`c_figures_by_batch`) and a run-rules slice's figures.
 * `c_words` is an FTS5 trigram index over relation C's descriptions (migration 0014;
 * drizzle has no word for it), with the shadow tables FTS5 keeps beside it.
 */
export const DERIVED_TABLES = ["c_rows", "c_totals", "c_floor", "c_floor_totals", "c_month_totals", "c_day_totals", "c_words", "c_figures_by_batch"] as const;

/**
 * The local model's evidence, kept so an object that starts again need not read it from the
 * whole ledger again (local-model.ts writes it, in the transaction that changes the
 * evidence). What the ledger teaches, as of `model_state`: not facts, so rewritten as the
 * evidence changes, and rebuilt from the ledger when missing.
 */
export const modelState = sqliteTable("model_state", {
  /** Always 1: one row. */
  id: integer("id").primaryKey(),
  /** The sum of the examples' hashes (the version's last part). */
  hash: integer("hash").notNull(),
  /** The newest decision, line event and line the evidence has seen. */
  throughSeq: integer("through_seq").notNull(),
  throughEvent: integer("through_event").notNull(),
  throughLine: integer("through_line").notNull(),
  /** The calibration's last fit, as JSON (`KeptCalibration`); null until the model first predicts. */
  calibration: text("calibration"),
});

/**
 * The examples (see `modelState`): each line key (src/ledger/model/features.ts) with how
 * many evidence lines of each category have it; a few thousand rows at 100,000 lines.
 * Stored WITHOUT ROWID (by its key), which drizzle cannot say, so its migration does.
 */
export const modelExamples = sqliteTable(
  "model_examples",
  {
    key: text("key").notNull(),
    category: text("category").notNull(),
    lines: integer("lines").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.category] })],
);

/** Every line of the feed by key, labelled or not (see `modelState`, `modelExamples`). */
export const modelLines = sqliteTable("model_lines", {
  key: text("key").primaryKey(),
  lines: integer("lines").notNull(),
});

export const MODEL_TABLES = ["model_state", "model_examples", "model_lines"] as const;

/** Copies of what the index pools across tenants, replaced whole when it is handed over again: not facts of this ledger. */
export const INDEX_COPY_TABLES = ["shared_prior_words"] as const;
