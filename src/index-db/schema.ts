/**
 * src/index-db/ (entry: this file, the D1 schema): the cross-tenant index: tenants,
 * credentials, sessions, grants, the cost meter, oracle sources, export destinations, bank
 * links and the state of the sandbox's stand-ins. Imports nothing of the service but the
 * ground floor (.dependency-cruiser.cjs: index-is-the-domain); imported by any room that
 * needs the index.
 */
/**
 * D1: the cross-tenant indexes. Tenants and their credentials live here so that a
 * request can be authenticated before it is routed to the tenant's own object.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { TIERS } from "../tiers";

export const tenants = sqliteTable(
  "tenants",
  {
    /** The tenant's slug, `[a-z0-9-]{3,40}`. */
    id: text("id").primaryKey(),
    tier: text("tier", { enum: TIERS }).notNull(),
    /** The visibility floor stored at sign-up (ISO date); it never moves. */
    visibleFrom: text("visible_from"),
    /** The customer's enrolled phone, E.164 (set at sign-up, changed on /settings). */
    phone: text("phone").notNull(),
    /** Whether the deployment holds an outbound SMS credential for this tenant. */
    smsEnabled: integer("sms_enabled", { mode: "boolean" }).notNull(),
    passwordSalt: text("password_salt").notNull(),
    passwordHash: text("password_hash").notNull(),
    passwordIterations: integer("password_iterations").notNull(),
    createdAt: text("created_at").notNull(),
    /** The business's name as the owner gave it at sign-up (a sandbox sign-up: the handle). */
    businessName: text("business_name"),
    /** The owner's email, where verification links and password resets go; null for a sandbox sign-up that gave none. */
    ownerEmail: text("owner_email"),
    /** When the owner's email was verified (a link it received was followed); null until then. */
    emailVerifiedAt: text("email_verified_at"),
    /** When the owner accepted the terms at sign-up. */
    termsAcceptedAt: text("terms_accepted_at"),
    /** SHA-256 of the sign-up's idempotency key: the same sign-up sent again gets the same answer. */
    signupKeyHash: text("signup_key_hash"),
  },
  // Inbound SMS finds its tenant by the sender's phone.
  (t) => [index("tenants_phone").on(t.phone)],
);

/** Personal access tokens. Only a hash of the secret is stored. */
export const accessTokens = sqliteTable(
  "access_tokens",
  {
    /** The token's key id, public: it names the token in the actor `token:<tenant>:<kid>`. */
    kid: text("kid").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    label: text("label").notNull(),
    /** `auditor`: a grant token; its label names the grant (`auditor-grant:<id>`). */
    scope: text("scope", { enum: ["read_only", "read_write", "auditor"] }).notNull(),
    secretHash: text("secret_hash").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
  },
  (t) => [index("access_tokens_tenant").on(t.tenantId)],
);

/**
 * Browser sessions (`svc_session`). Only a hash of the cookie value is stored. A session
 * signed in with the tenant's password is the owner's (`person_id` null); one signed in
 * by a person names them, and its tenant is the one the person is working in now (the
 * practice dashboard's switcher moves it between the tenants where they hold a seat).
 */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    personId: text("person_id"),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    endedAt: text("ended_at"),
  },
  // The daily purge finds what has expired by this index (an ended session expires when it ends).
  (t) => [index("sessions_tenant").on(t.tenantId), index("sessions_expiry").on(t.expiresAt)],
);

/**
 * The sandbox bank's outbox: changes queued by `POST /sandbox/tenants/{tenant}/bank`,
 * served page by page to the sync watcher. `seq` is the sandbox bank's cursor.
 */
export const sandboxBankChanges = sqliteTable(
  "sandbox_bank_changes",
  {
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    /** Which of the tenant's sandbox feeds: "" for the sandbox bank of its sign-up, else the item id of a bank linked through the sandbox link page. */
    feed: text("feed").notNull().default(""),
    kind: text("kind", { enum: ["account", "added", "modified", "removed"] }).notNull(),
    payload: text("payload").notNull(),
    queuedAt: text("queued_at").notNull(),
  },
  // Every page also carries the accounts known so far: found by kind, not by reading every change before it.
  (t) => [index("sandbox_bank_changes_feed").on(t.tenantId, t.feed, t.seq), index("sandbox_bank_changes_feed_kind").on(t.tenantId, t.feed, t.kind, t.seq)],
);

/** The cost meter: one row per tenant and calendar month (America/Chicago). */
export const meterMonths = sqliteTable(
  "meter_months",
  {
    tenantId: text("tenant_id").notNull(),
    /** `YYYY-MM`. */
    month: text("month").notNull(),
    calls: integer("calls").notNull().default(0),
    millicents: integer("millicents").notNull().default(0),
    unpricedCalls: integer("unpriced_calls").notNull().default(0),
    linesResolvedLocal: integer("lines_resolved_local").notNull().default(0),
    linesSentToApi: integer("lines_sent_to_api").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.month] })],
);

/** A tenant's own monthly cap, overriding its tier's (set by an operator). */
export const meterCaps = sqliteTable("meter_caps", {
  tenantId: text("tenant_id").primaryKey(),
  capMillicentsMonth: integer("cap_millicents_month").notNull(),
  setAt: text("set_at").notNull(),
});

/** Where the daily cron fetches a tenant's oracle report for parity (set on /settings). */
export const oracleSources = sqliteTable("oracle_sources", {
  tenantId: text("tenant_id").primaryKey(),
  /** An HTTPS address answering the structured report as JSON. */
  url: text("url").notNull(),
  /** Sent as `Authorization: Bearer <secret>` when set. */
  bearerSecret: text("bearer_secret"),
  setAt: text("set_at").notNull(),
});

/**
 * A tenant's spreadsheet destinations for export (connected on /settings). A destination
 * is live until it is disconnected; `export_books` pushes to the newest live one. Its
 * OAuth tokens are kept sealed (AES-GCM, src/auth/sealing.ts) and never shown again.
 */
export const exportDestinations = sqliteTable(
  "export_destinations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    /** The spreadsheet's id in the spreadsheet API. */
    spreadsheetId: text("spreadsheet_id").notNull(),
    /** The sheet (tab) the books are written to; it is cleared on every push. */
    sheet: text("sheet").notNull(),
    /**
     * The OAuth refresh token the person gave, sealed; the push buys access tokens with it.
     * Null for a destination connected with a pasted access token before refresh tokens were
     * kept: it must be connected again.
     */
    sealedRefreshToken: text("sealed_refresh_token"),
    /** The last access token bought, sealed, and when it stops working; null until a push buys one. */
    sealedAccessToken: text("sealed_access_token"),
    accessTokenExpiresAt: text("access_token_expires_at"),
    connectedAt: text("connected_at").notNull(),
    disconnectedAt: text("disconnected_at"),
  },
  (t) => [index("export_destinations_tenant").on(t.tenantId, t.id)],
);

/**
 * Auditor grant requests: filed by `offer_auditor_grant`, ended by a confirm. Only a keyed
 * digest of the six-digit code is kept; its salt holds the viewer's phone as spelled.
 */
export const grantRequests = sqliteTable(
  "grant_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    viewerName: text("viewer_name").notNull(),
    viewerChannel: text("viewer_channel").notNull(),
    /** Random per request; with the viewer's phone, the salt of the code's digest. */
    salt: text("salt").notNull(),
    codeDigest: text("code_digest").notNull(),
    /** Confirm attempts so far (at most GRANT_MAX_ATTEMPTS count). */
    attempts: integer("attempts").notNull().default(0),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    confirmedAt: text("confirmed_at"),
  },
  (t) => [index("grant_requests_tenant").on(t.tenantId, t.id)],
);

/**
 * Auditor grants: the index from a grant token (its key id, the token's label) to the
 * grant and its tenant, so an auditor token resolves without knowing the tenant.
 */
export const auditorGrants = sqliteTable(
  "auditor_grants",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    requestId: integer("request_id").notNull().unique(),
    viewerName: text("viewer_name").notNull(),
    viewerChannel: text("viewer_channel").notNull(),
    /** The grant token's key id (the token row in access_tokens, labelled with the grant). */
    tokenKid: text("token_kid").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    lastReadAt: text("last_read_at"),
  },
  (t) => [index("auditor_grants_tenant").on(t.tenantId, t.id)],
);

/**
 * The sandbox's spreadsheets: the rows pushes wrote through the sandbox stand-in of the
 * spreadsheet API (`GET /sandbox/tenants/{tenant}/spreadsheets/{id}`), one row of cells a row.
 */
export const sandboxSheetRows = sqliteTable(
  "sandbox_sheet_rows",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    spreadsheetId: text("spreadsheet_id").notNull(),
    sheet: text("sheet").notNull(),
    /** The row's cells (JSON). */
    cells: text("cells").notNull(),
  },
  (t) => [index("sandbox_sheet_rows_sheet").on(t.tenantId, t.spreadsheetId, t.sheet, t.id)],
);

/** The sandbox carrier's outbox: the SMS it was asked to send (`GET /sandbox/tenants/{tenant}/outbox`). */
export const sandboxOutbox = sqliteTable(
  "sandbox_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tenantId: text("tenant_id").notNull(),
    to: text("to").notNull(),
    body: text("body").notNull(),
    sid: text("sid").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("sandbox_outbox_tenant").on(t.tenantId, t.id)],
);

/**
 * The single-use links the service emails: verifying the owner's email, and resetting a
 * password (the owner's, which is the tenant's, or a person's). Only a SHA-256 of the
 * link's secret is kept; a link is spent by stamping `used_at`, and is good until
 * `expires_at`. A link is for a tenant (its owner) or for a person, never both.
 */
export const emailLinks = sqliteTable(
  "email_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    /** The tenant whose owner the link is for; null for a person's. */
    tenantId: text("tenant_id"),
    /** The person the link is for (a password reset); null for an owner's. */
    personId: text("person_id"),
    purpose: text("purpose", { enum: ["verify_email", "reset_password"] }).notNull(),
    /** The address the link was sent to: verifying it verifies only this address. */
    email: text("email").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [
    index("email_links_tenant").on(t.tenantId, t.purpose),
    index("email_links_expiry").on(t.expiresAt),
    check("email_links_one_account", sql`(tenant_id IS NULL) <> (person_id IS NULL)`),
  ],
);

/**
 * The bank links a tenant's owner has opened at the aggregator (its hosted link page) and
 * not yet finished: the link token, and for a re-authorisation the connection it repairs.
 * The browser comes back with `state`, whose SHA-256 finds the row; a row is spent once.
 */
export const bankLinks = sqliteTable(
  "bank_links",
  {
    stateHash: text("state_hash").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    linkToken: text("link_token").notNull(),
    /** The connection a re-authorisation (update mode) repairs, or the one a new bank became; null until then. */
    connectionId: integer("connection_id"),
    /** `repair` for update mode, `new` for a new bank. */
    mode: text("mode", { enum: ["new", "repair"] }).notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    finishedAt: text("finished_at"),
    /** How it ended, in words the owner is shown (connected, repaired, left, expired, refused and why). */
    outcome: text("outcome"),
    /** The actor that opened it (`human:<tenant>`, or `person:<id>` for a co-owner's session), recorded on what its finishing does; null on links opened before actors were kept, which were the owner's. */
    openedBy: text("opened_by"),
  },
  // The aggregator's end-of-session webhook names the link token.
  (t) => [index("bank_links_tenant").on(t.tenantId, t.createdAt), index("bank_links_token").on(t.linkToken)],
);

/** Which tenant and connection an aggregator item belongs to: the aggregator's webhooks name only the item. */
export const bankItems = sqliteTable(
  "bank_items",
  {
    itemId: text("item_id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    connectionId: integer("connection_id").notNull(),
    connectedAt: text("connected_at").notNull(),
    disconnectedAt: text("disconnected_at"),
  },
  (t) => [index("bank_items_tenant").on(t.tenantId)],
);

/** The sandbox mail service's outbox: the mail it was asked to send (`GET /sandbox/mail`). */
export const sandboxMail = sqliteTable(
  "sandbox_mail",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    messageId: text("message_id").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("sandbox_mail_to").on(t.to, t.id)],
);

/**
 * The sandbox aggregator's link sessions (the stand-in for its hosted link page): the link
 * token, where the browser goes when it is done, and what the person chose there.
 */
export const sandboxLinkSessions = sqliteTable("sandbox_link_sessions", {
  linkToken: text("link_token").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  completionUri: text("completion_uri").notNull(),
  /** Update mode: the item whose login is repaired; null for a new item. */
  itemId: text("item_id"),
  createdAt: text("created_at").notNull(),
  expiresAt: text("expires_at").notNull(),
  /** `success` or `exit` once the person finished on the page. */
  outcome: text("outcome", { enum: ["success", "exit"] }),
  /** A new item's public token (single use). */
  publicToken: text("public_token"),
  finishedAt: text("finished_at"),
});

/** The sandbox aggregator's items: a fake institution linked on the stand-in page, its access token and its login's state. */
export const sandboxItems = sqliteTable(
  "sandbox_items",
  {
    itemId: text("item_id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    institutionId: text("institution_id").notNull(),
    publicToken: text("public_token").notNull().unique(),
    accessToken: text("access_token").unique(),
    /** The stand-in of the bank asking its customer to sign in again (`/sandbox/.../reset-login`). */
    loginRequired: integer("login_required", { mode: "boolean" }).notNull().default(false),
    createdAt: text("created_at").notNull(),
    removedAt: text("removed_at"),
  },
  (t) => [index("sandbox_items_tenant").on(t.tenantId)],
);

/** What a seat lets its person do in a tenant (src/auth/caller.ts, CREDENTIAL_RULES, says which rules each role passes). */
export const ROLES = ["owner", "bookkeeper", "viewer"] as const;

/**
 * People: accounts that sign in by email and password (hashed as the tenant's password is)
 * and hold seats in tenants. A person is named in the actor of what they do, `person:<id>`.
 */
export const people = sqliteTable("people", {
  /** `p` and 16 hex digits, random. */
  id: text("id").primaryKey(),
  /** Lower-cased; one account per address. */
  email: text("email").notNull().unique(),
  /** As the person gave it when they accepted their first invitation. */
  name: text("name").notNull(),
  passwordSalt: text("password_salt").notNull(),
  passwordHash: text("password_hash").notNull(),
  passwordIterations: integer("password_iterations").notNull(),
  createdAt: text("created_at").notNull(),
});

/**
 * A person's seat in a tenant, with the role it was taken with (a change of role is a
 * `seat_roles` row); a revoked seat is kept, stamped once. One live seat per person and
 * tenant. Triggers refuse deleting a seat and changing it but for its revocation's stamp.
 */
export const seats = sqliteTable(
  "seats",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    personId: text("person_id").notNull(),
    tenantId: text("tenant_id").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    /** The invitation it was accepted from. */
    invitationId: integer("invitation_id").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
    /** The actor that revoked it. */
    revokedBy: text("revoked_by"),
  },
  (t) => [
    uniqueIndex("seats_live").on(t.personId, t.tenantId).where(sql`revoked_at IS NULL`),
    index("seats_tenant").on(t.tenantId, t.id),
  ],
);

/**
 * Invitations to a seat, sent by email: the link carries a 256-bit random secret of which
 * only the SHA-256 is kept; it is spent when accepted, and lapses at its expiry or when
 * the owner withdraws it. Triggers refuse deleting one and changing it but for the stamps
 * of its acceptance or its withdrawal, each once.
 */
export const invitations = sqliteTable(
  "invitations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    tokenHash: text("token_hash").notNull().unique(),
    tenantId: text("tenant_id").notNull(),
    /** Lower-cased. */
    email: text("email").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    /** The actor that invited (`human:<tenant>` or `person:<id>`). */
    invitedBy: text("invited_by").notNull(),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    /** The person who accepted it. */
    acceptedBy: text("accepted_by"),
    withdrawnAt: text("withdrawn_at"),
    /** The actor that withdrew it; null while it is not withdrawn, and for one a newer invitation to the address replaced. */
    withdrawnBy: text("withdrawn_by"),
  },
  (t) => [index("invitations_tenant").on(t.tenantId, t.id)],
);

/**
 * The changes of a seat's role, appended (a trigger refuses every UPDATE and DELETE): the
 * seat's role is its newest row's, or the role it was taken with while it has none.
 */
export const seatRoles = sqliteTable(
  "seat_roles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    seatId: integer("seat_id").notNull(),
    tenantId: text("tenant_id").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    /** The actor that changed it (`human:<tenant>` or `person:<id>`). */
    actor: text("actor").notNull(),
    at: text("at").notNull(),
  },
  (t) => [index("seat_roles_seat").on(t.seatId, t.id)],
);

/** A seat's role now, in a query over `seats`: its newest change's, or the role it was taken with. */
export const seatRoleNow = sql<Role>`coalesce((SELECT r.role FROM seat_roles r WHERE r.seat_id = "seats"."id" ORDER BY r.id DESC LIMIT 1), "seats"."role")`;
export type Role = (typeof ROLES)[number];

/**
 * What each tenant that opted in to the shared merchant prior contributes
 * (src/ledger/model/shared-prior.ts): per merchant word, the share of its labelled lines
 * in their most frequent category, and that category's shared name where it files nearly
 * all of them there. Replaced whole by the tenant's daily run, removed when it opts out;
 * read only pooled over five tenants or more (src/index-db/shared-prior.ts).
 */
export const sharedPriorContributions = sqliteTable(
  "shared_prior_contributions",
  {
    tenantId: text("tenant_id").notNull(),
    word: text("word").notNull(),
    /** The share, in millionths. */
    agreementPpm: integer("agreement_ppm").notNull(),
    /** The category's shared name where the tenant files the word's lines under one (src/ledger/model/shared-prior.ts); null otherwise. */
    category: text("category"),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.word] }), index("shared_prior_contributions_word").on(t.word)],
);

/**
 * The shared names of each opted-in tenant's categories, beside its contribution: how many
 * of the tenants that have a merchant also have a category of the name most of them file it
 * under (the pooled category's confidence). Kept and removed with the contribution.
 */
export const sharedPriorCategories = sqliteTable(
  "shared_prior_categories",
  {
    tenantId: text("tenant_id").notNull(),
    category: text("category").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.category] })],
);

/**
 * The pooled prior, computed once a day from every opted-in tenant's contribution (at the
 * daily run's start) and read by each tenant's day: only words at least five tenants
 * contributed (src/index-db/shared-prior.ts). Replaced whole.
 */
export const sharedPriorPool = sqliteTable("shared_prior_pool", {
  word: text("word").primaryKey(),
  tenants: integer("tenants").notNull(),
  /** The mean agreement, in millionths. */
  agreementPpm: integer("agreement_ppm").notNull(),
  category: text("category"),
  categoryTenants: integer("category_tenants").notNull(),
  namingTenants: integer("naming_tenants").notNull(),
  /** When the pool was computed (the daily run's scheduled time). */
  pooledAt: text("pooled_at").notNull(),
});
