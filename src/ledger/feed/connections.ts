/**
 * The tenant's bank connections: each one an item (one institution's login) at the
 * aggregator, a bank linked through the sandbox's link page, or the sandbox bank of a
 * sandbox sign-up. A connection is appended once; what happens to it later (a login the
 * bank wants again, an error, a repair, a disconnection) is appended as an event, and its
 * newest event is its status. A disconnected connection stays disconnected: linking the
 * same bank again makes a new connection. Access tokens arrive encrypted; the ledger
 * never sees them in the clear.
 */
import { asc, desc, eq, sql } from "drizzle-orm";
import { CONNECTION_CAPS, type Tier } from "../../tiers";
import { actorWords, personOfActor, type NotedPerson } from "../books/people";
import { postNotice } from "../messages";
import { notFound, ok, refused, type Outcome } from "../outcome";
import type { LedgerDb, LedgerHandle } from "../store/db";
import { bankConnectionEvents, bankConnections, bankConnectionTokens, ledgerOpening, type ConnectionStatus } from "../store/schema";

export interface Connection {
  id: number;
  provider: "sandbox" | "aggregator";
  itemId: string | null;
  institution: string | null;
  connectedAt: string;
  status: ConnectionStatus;
  /** Why it has its status, in words; empty while it is connected and never was otherwise. */
  statusDetail: string;
  /** When its status began (when it was connected, for a connection with no event). */
  statusAt: string;
}

/** What syncing or repairing a connection needs: the connection and its access token (encrypted). */
export interface ConnectionSecret extends Connection {
  accessToken: string;
}

/** The ledger's opening: whose books these are. The sign-up's first call writes it; asked again, it answers the same. */
export function openLedger(db: LedgerDb, tenant: string, at: string): { tenant: string; openedAt: string } {
  return db.transaction((tx) => {
    const opened = tx.select().from(ledgerOpening).orderBy(ledgerOpening.id).limit(1).get();
    if (opened) return { tenant: opened.tenant, openedAt: opened.openedAt };
    tx.insert(ledgerOpening).values({ tenant, openedAt: at }).run();
    return { tenant, openedAt: at };
  });
}

const newest = (column: "status" | "detail" | "at") =>
  sql.raw(`(SELECT e.${column} FROM bank_connection_events e WHERE e.connection_id = bank_connections.id ORDER BY e.id DESC LIMIT 1)`);
const newestToken = sql.raw(
  "(SELECT t.access_token FROM bank_connection_tokens t WHERE t.connection_id = bank_connections.id ORDER BY t.id DESC LIMIT 1)",
);

function selectConnections(db: LedgerHandle) {
  return db
    .select({
      id: bankConnections.id,
      provider: bankConnections.provider,
      itemId: bankConnections.itemId,
      institution: bankConnections.institution,
      connectedAt: bankConnections.connectedAt,
      accessToken: sql<string>`coalesce(${newestToken}, ${bankConnections.accessToken})`,
      status: sql<ConnectionStatus | null>`${newest("status")}`,
      statusDetail: sql<string | null>`${newest("detail")}`,
      statusAt: sql<string | null>`${newest("at")}`,
    })
    .from(bankConnections);
}

type SelectedRow = Awaited<ReturnType<ReturnType<typeof selectConnections>["all"]>>[number];

function secretOf(row: SelectedRow): ConnectionSecret {
  return {
    id: row.id,
    provider: row.provider,
    itemId: row.itemId,
    institution: row.institution,
    connectedAt: row.connectedAt,
    status: row.status ?? "connected",
    statusDetail: row.statusDetail ?? "",
    statusAt: row.statusAt ?? row.connectedAt,
    accessToken: row.accessToken,
  };
}

function withoutSecret({ accessToken: _secret, ...connection }: ConnectionSecret): Connection {
  return connection;
}

/** Every connection, newest first, each with its status. */
export function listConnections(db: LedgerHandle): Connection[] {
  return selectConnections(db).orderBy(desc(bankConnections.id)).all().map(secretOf).map(withoutSecret);
}

/** The connections not disconnected, oldest first, with their tokens: what a sync runs over and a key rotation re-encrypts. */
export function liveConnectionSecrets(db: LedgerHandle): ConnectionSecret[] {
  return selectConnections(db)
    .orderBy(bankConnections.id)
    .all()
    .map(secretOf)
    .filter((c) => c.status !== "disconnected");
}

export function countLiveConnections(db: LedgerHandle): number {
  return liveConnectionSecrets(db).length;
}

function noSuchConnection(id: number): Outcome<never> {
  return notFound(`This tenant holds no bank connection ${id}.`);
}

export function connectionOf(db: LedgerHandle, id: number): Outcome<Connection> {
  const row = selectConnections(db).where(eq(bankConnections.id, id)).get();
  return row ? ok(withoutSecret(secretOf(row))) : noSuchConnection(id);
}

/** A live connection with its (encrypted) token: for repairing its login at the aggregator. */
export function connectionSecret(db: LedgerHandle, id: number): Outcome<ConnectionSecret> {
  const row = selectConnections(db).where(eq(bankConnections.id, id)).get();
  if (!row) return noSuchConnection(id);
  const connection = secretOf(row);
  if (connection.status === "disconnected") return refused(`Bank connection ${id} is disconnected; link the bank again instead.`);
  return ok(connection);
}

export interface NewItem {
  provider: "sandbox" | "aggregator";
  itemId: string;
  institution: string | null;
  /** Encrypted (src/banks/bank-tokens.ts). */
  accessToken: string;
}

/**
 * A bank linked in the aggregator's flow, as a new connection, within the tier's cap of
 * live connections. The same item linked again while it is live answers its connection
 * (an exchange repeated after a lost answer changes nothing).
 */
export function linkItem(db: LedgerDb, item: NewItem, tier: Tier, actor: string, at: string): Outcome<{ connection: Connection; created: boolean }> {
  return db.transaction((tx) => {
    const live = liveConnectionSecrets(tx);
    const same = live.find((c) => c.itemId === item.itemId);
    if (same) return ok({ connection: withoutSecret(same), created: false });
    const cap = CONNECTION_CAPS[tier];
    if (live.length >= cap) {
      return refused(`The ${tier} tier holds at most ${cap} bank connection${cap === 1 ? "" : "s"} and this tenant holds ${live.length}; disconnect one on /settings first.`);
    }
    const id = tx
      .insert(bankConnections)
      .values({ provider: item.provider, accessToken: item.accessToken, connectedAt: at, itemId: item.itemId, institution: item.institution })
      .returning({ id: bankConnections.id })
      .get().id;
    tx.insert(bankConnectionEvents).values({ connectionId: id, status: "connected", detail: `linked by ${actorWords(tx, actor)}`, actor, at }).run();
    return ok({ connection: withoutSecret(secretOf(selectConnections(tx).where(eq(bankConnections.id, id)).get()!)), created: true });
  });
}

/** The bank's name for the owner: the institution, or the connection's number. */
export function bankName(connection: Pick<Connection, "id" | "institution" | "provider">): string {
  return connection.institution ?? (connection.provider === "sandbox" ? `the sandbox bank (connection ${connection.id})` : `bank connection ${connection.id}`);
}

/** What the owner is told in the thread when a connection's status changes. */
export function statusNotice(connection: Connection, status: Exclude<ConnectionStatus, "disconnected">, detail: string): string {
  const bank = bankName(connection);
  switch (status) {
    case "login_required":
      return `${bank} asks you to sign in to it again; until you do, its lines do not sync. Open Settings, Banks, and choose "Sign in again". (${detail})`;
    case "error":
      return `${bank} could not be synced: ${detail}. If it goes on, link the bank again from Settings, Banks.`;
    case "connected":
      return `${bank} is connected again; its lines sync again.`;
  }
}

/**
 * A connection's status changes to `status`, appended only when it is a change (a webhook
 * delivered twice, or a sync that finds the same error again, appends nothing), with a
 * notice to the owner in the thread, in the same transaction. A disconnected connection
 * changes no more. `changed` says whether anything was appended.
 */
export function recordConnectionStatus(
  db: LedgerDb,
  id: number,
  status: Exclude<ConnectionStatus, "disconnected">,
  detail: string,
  actor: string,
  at: string,
): Outcome<{ connection: Connection; changed: boolean }> {
  return db.transaction((tx) => {
    const row = selectConnections(tx).where(eq(bankConnections.id, id)).get();
    if (!row) return noSuchConnection(id);
    const connection = withoutSecret(secretOf(row));
    if (connection.status === "disconnected" || connection.status === status) return ok({ connection, changed: false });
    tx.insert(bankConnectionEvents).values({ connectionId: id, status, detail, actor, at }).run();
    postNotice(tx, statusNotice(connection, status, detail), actor, at);
    return ok({ connection: { ...connection, status, statusDetail: detail, statusAt: at }, changed: true });
  });
}

/** A connection's login signed in again by someone in the aggregator's update mode: connected again, naming who. */
export function repairConnection(db: LedgerDb, id: number, actor: string, at: string): Outcome<{ connection: Connection; changed: boolean }> {
  return recordConnectionStatus(db, id, "connected", `signed in again in the aggregator's update mode by ${actorWords(db, actor)}`, actor, at);
}

/** Disconnects a connection: its feed is pulled no more; its lines stay in the books. */
export function disconnect(db: LedgerDb, id: number, actor: string, at: string): Outcome<Connection> {
  return db.transaction((tx) => {
    const row = selectConnections(tx).where(eq(bankConnections.id, id)).get();
    if (!row) return noSuchConnection(id);
    const connection = withoutSecret(secretOf(row));
    if (connection.status === "disconnected") return refused(`Bank connection ${id} was disconnected already, at ${connection.statusAt}.`);
    const detail = `disconnected by ${actorWords(tx, actor)}`;
    tx.insert(bankConnectionEvents).values({ connectionId: id, status: "disconnected", detail, actor, at }).run();
    return ok({ ...connection, status: "disconnected", statusDetail: detail, statusAt: at });
  });
}

/** A live connection's token encrypted again (under the newest key); the newest is the one used. */
export function replaceToken(db: LedgerDb, id: number, accessToken: string, at: string): boolean {
  return db.transaction((tx) => {
    const row = selectConnections(tx).where(eq(bankConnections.id, id)).get();
    if (!row || secretOf(row).status === "disconnected") return false;
    tx.insert(bankConnectionTokens).values({ connectionId: id, accessToken, at }).run();
    return true;
  });
}

/** One change of a connection's status, as its history lists it. */
export interface ConnectionEvent {
  status: ConnectionStatus;
  detail: string;
  /** Who or what changed it: `human:<tenant>` (the owner's session), `person:<id>` (a person's), or the service (`aggregator:webhook`, `service:sync-watcher`). */
  actor: string;
  /** The person a `person:<id>` actor names, as the ledger noted them; null for any other actor. */
  person: NotedPerson | null;
  at: string;
}

/** A connection's history: every change of its status, oldest first, each naming who made it. */
export function connectionHistory(db: LedgerHandle, id: number): Outcome<ConnectionEvent[]> {
  const found = connectionOf(db, id);
  if (!found.ok) return found;
  const events = db.select().from(bankConnectionEvents).where(eq(bankConnectionEvents.connectionId, id)).orderBy(asc(bankConnectionEvents.id)).all();
  return ok(events.map((e) => ({ status: e.status, detail: e.detail, actor: e.actor, person: personOfActor(db, e.actor), at: e.at })));
}
