import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { TenantLedger } from "../tenant-ledger";
import { notePerson, personActor, personOfActor } from "./people";

const AT = "2026-11-20T12:00:00.000Z";
const ledger = (name: string) => env.TENANT_LEDGER.get(env.TENANT_LEDGER.idFromName(`people-${name}`));

describe("the people named in actors", () => {
  it("finds a noted person by their actor, keeps what was noted first, and names no other actor", async () => {
    await runInDurableObject(ledger("noted"), (instance: TenantLedger) => {
      const dana = { id: "p0123456789abcdef", name: "Dana Reyes", email: "dana@books.example" };
      notePerson(instance.db, dana, AT);
      notePerson(instance.db, { ...dana, name: "Someone Else" }, AT);
      expect(personOfActor(instance.db, personActor(dana.id))).toEqual(dana);
      expect(personOfActor(instance.db, "person:p1111111111111111")).toBeNull();
      expect(personOfActor(instance.db, "human:acme")).toBeNull();
      expect(personOfActor(instance.db, `token:acme:${dana.id}`)).toBeNull();
      expect(personOfActor(instance.db, `person:${dana.id}:x`)).toBeNull();
    });
  });
});
