/**
 * The people named in this ledger's actors. A person's actor is `person:<id>`; the ledger
 * notes the person's name and email once, when they take a seat in the tenant, so that an
 * explanation names who judged (docs/decisions.md, "People and roles").
 */
import { eq } from "drizzle-orm";
import type { LedgerHandle } from "../store/db";
import { people } from "../store/schema";

export interface NotedPerson {
  id: string;
  name: string;
  email: string;
}

const PERSON_ACTOR = /^person:(p[0-9a-f]{16})$/;

/** The actor a person's session records: `person:<id>`. */
export function personActor(personId: string): string {
  return `person:${personId}`;
}

/** Notes a person; a person noted before keeps what was noted first (the same call made again changes nothing). */
export function notePerson(db: LedgerHandle, person: NotedPerson, at: string): void {
  db.insert(people).values({ personId: person.id, name: person.name, email: person.email, notedAt: at }).onConflictDoNothing().run();
}

/** The person an actor names, as noted; null for any other actor (the owner's session, a token, a service) or a person never noted. */
export function personOfActor(db: LedgerHandle, actor: string): NotedPerson | null {
  const id = PERSON_ACTOR.exec(actor)?.[1];
  if (id === undefined) return null;
  const row = db.select({ id: people.personId, name: people.name, email: people.email }).from(people).where(eq(people.personId, id)).get();
  return row ?? null;
}

/** Who an actor is, in words: a person by name and actor (`Dana Reyes (person:p…)`), any other actor as it is written. */
export function actorWords(db: LedgerHandle, actor: string): string {
  const person = personOfActor(db, actor);
  return person === null ? actor : `${person.name} (${actor})`;
}
