/**
 * People and invitations through the API: list, invite, withdraw, change a role, revoke a
 * seat, each by the owner's session (a co-owner's included) and recorded with its actor;
 * the invited person accepts the mailed link in a browser; a role changed reaches the
 * person's next request; every change is a fact the index refuses to edit or delete.
 */
import { env, SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { sandboxMailTo } from "../../providers/email/sandbox";
import { accept, seatPerson, uniqueEmail, type Person } from "../../../test/fixtures/people";
import { api, BASE, createTenant, rw, session, type SandboxTenant } from "../../../test/fixtures/sandbox";

const PASSWORD = "a long enough password";

/** The secret of the newest invitation mailed to `email`. */
async function mailedSecret(email: string): Promise<string> {
  const [mail] = await sandboxMailTo(env.INDEX_DB, email, 1);
  return /\/invitations\/accept\?token=([A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
}

async function inviteByApi(credential: { session: string }, email: string, role: string) {
  return api(credential, "/api/v1/people/invitations", { method: "POST", body: { email, role } });
}

describe("the people operations", () => {
  let owner: SandboxTenant;
  let ownerActor: string;
  beforeAll(async () => {
    owner = await createTenant({ owner_email: "owner@people-api.example" });
    ownerActor = `human:${owner.tenant}`;
  });

  it("invites by email: the invitation is filed and listed pending, its link mailed, and accepting it seats the person", async () => {
    const email = uniqueEmail("Dana").toUpperCase();
    const invited = await inviteByApi(session(owner), email, "bookkeeper");
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(invited.body).toMatchObject({
      invitation: { email: email.toLowerCase(), role: "bookkeeper", status: "pending", invited_by: ownerActor, accepted_at: null, withdrawn_at: null },
      invitation_email: "sent",
      invitation_email_problem: null,
    });
    const listed = await api(session(owner), "/api/v1/people");
    expect(listed.status).toBe(200);
    expect(listed.body.owner).toEqual({ email: "owner@people-api.example", email_verified: false });
    expect(listed.body.invitations.map((i: any) => i.invitation_id)).toContain(invited.body.invitation.invitation_id);

    const value = await accept(await mailedSecret(email.toLowerCase()), { name: "Dana Reyes", password: PASSWORD });
    expect((await api({ session: value }, "/api/v1/me")).body.auth.role).toBe("bookkeeper");
    const after = (await api(session(owner), "/api/v1/people")).body;
    const seat = after.people.find((p: any) => p.email === email.toLowerCase());
    expect(seat).toMatchObject({ name: "Dana Reyes", role: "bookkeeper", revoked_at: null, revoked_by: null });
    expect(seat.person_id).toMatch(/^p[0-9a-f]{16}$/);
    expect(seat.roles).toEqual([{ role: "bookkeeper", at: seat.since, by: ownerActor }]);
    expect(after.invitations.map((i: any) => i.invitation_id)).not.toContain(invited.body.invitation.invitation_id);
  });

  it("refuses every bad field at once, the owner's own email, and an address seated already", async () => {
    const bad = await inviteByApi(session(owner), "not an address", "admin");
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.field).sort()).toEqual(["body.email", "body.role"]);
    const own = await inviteByApi(session(owner), "Owner@People-API.example", "viewer");
    expect(own.status).toBe(400);
    expect(own.body.errors[0]).toMatchObject({ field: "body.email" });
    expect(own.body.errors[0].message).toContain("owner's own email");
    const seated = await seatPerson(owner, "viewer");
    const again = await inviteByApi(session(owner), seated.email, "bookkeeper");
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("already_seated");
  });

  it("withdraws an invitation: its link opens nothing, withdrawing again answers it unchanged, an accepted one is 409", async () => {
    const email = uniqueEmail("withdrawn");
    const invited = (await inviteByApi(session(owner), email, "viewer")).body.invitation;
    const secret = await mailedSecret(email);
    const path = `/api/v1/people/invitations/${invited.invitation_id}/withdraw`;
    const withdrawn = await api(session(owner), path, { method: "POST" });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.invitation).toMatchObject({ status: "withdrawn", withdrawn_by: ownerActor });
    expect((await SELF.fetch(`${BASE}/invitations/accept?token=${secret}`)).status).toBe(404);
    const again = await api(session(owner), path, { method: "POST" });
    expect(again.body.invitation).toEqual(withdrawn.body.invitation);

    const acceptedEmail = uniqueEmail("accepted");
    const acceptedId = (await inviteByApi(session(owner), acceptedEmail, "viewer")).body.invitation.invitation_id;
    await accept(await mailedSecret(acceptedEmail), { name: "Al Accepted", password: PASSWORD });
    const refused = await api(session(owner), `/api/v1/people/invitations/${acceptedId}/withdraw`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("invitation_accepted");
    expect((await api(session(owner), "/api/v1/people/invitations/999999/withdraw", { method: "POST" })).status).toBe(404);
  });

  it("a new invitation to the same address withdraws the pending one, by whoever sent the new one", async () => {
    const email = uniqueEmail("twice");
    const first = (await inviteByApi(session(owner), email, "viewer")).body.invitation;
    const second = (await inviteByApi(session(owner), email, "bookkeeper")).body.invitation;
    const listed = (await api(session(owner), "/api/v1/people")).body.invitations.map((i: any) => i.invitation_id);
    expect(listed).toContain(second.invitation_id);
    expect(listed).not.toContain(first.invitation_id);
    const stamped = await api(session(owner), `/api/v1/people/invitations/${first.invitation_id}/withdraw`, { method: "POST" });
    expect(stamped.body.invitation).toMatchObject({ status: "withdrawn", withdrawn_by: ownerActor });
  });

  describe("a seat's role and its revocation", () => {
    let person: Person;
    let seatId: number;
    beforeAll(async () => {
      person = await seatPerson(owner, "bookkeeper", "Rita Role");
      seatId = (await api(session(owner), "/api/v1/people")).body.people.find((p: any) => p.email === person.email).seat_id;
    });

    it("changes the role: the person's next request has it, and the seat lists every role it held with who changed it", async () => {
      const before = await api({ session: person.session }, "/api/v1/create-rule", { method: "POST", body: { rule_key: "rita", match_kind: "amount_sign", match_value: "out", category: "Meals" } });
      expect(before.status, JSON.stringify(before.body)).toBe(200);
      const changed = await api(session(owner), `/api/v1/people/seats/${seatId}/role`, { method: "POST", body: { role: "viewer" } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body).toMatchObject({ changed: true, seat: { seat_id: seatId, role: "viewer" } });
      expect(changed.body.seat.roles.map((r: any) => [r.role, r.by])).toEqual([
        ["bookkeeper", ownerActor],
        ["viewer", ownerActor],
      ]);
      const refused = await api({ session: person.session }, "/api/v1/create-rule", { method: "POST", body: { rule_key: "rita-2", match_kind: "amount_sign", match_value: "out", category: "Meals" } });
      expect(refused.body.code).toBe("role_refused");
      expect((await api({ session: person.session }, "/api/v1/me")).body.auth.role).toBe("viewer");
      // The same role again appends nothing.
      const same = await api(session(owner), `/api/v1/people/seats/${seatId}/role`, { method: "POST", body: { role: "viewer" } });
      expect(same.body).toMatchObject({ changed: false, seat: { role: "viewer" } });
      expect(same.body.seat.roles).toHaveLength(2);
      // The People page shows the role now.
      const page = await SELF.fetch(`${BASE}/app/people`, { headers: { cookie: `svc_session=${owner.session}` } });
      expect(await page.text()).toMatch(new RegExp(`data-seat="${seatId}"><td>Rita Role</td><td>[^<]+</td><td>viewer</td>`));
    });

    it("revokes the seat: the person's session reaches nothing; revoking again answers it unchanged; its role is no longer changed", async () => {
      const revoked = await api(session(owner), `/api/v1/people/seats/${seatId}/revoke`, { method: "POST" });
      expect(revoked.status).toBe(200);
      expect(revoked.body.seat).toMatchObject({ seat_id: seatId, revoked_by: ownerActor });
      expect(revoked.body.seat.revoked_at).not.toBeNull();
      expect((await api({ session: person.session }, "/api/v1/me")).status).toBe(401);
      const again = await api(session(owner), `/api/v1/people/seats/${seatId}/revoke`, { method: "POST" });
      expect(again.body.seat).toEqual(revoked.body.seat);
      const role = await api(session(owner), `/api/v1/people/seats/${seatId}/role`, { method: "POST", body: { role: "owner" } });
      expect(role.status).toBe(409);
      expect(role.body.code).toBe("seat_revoked");
      expect((await api(session(owner), "/api/v1/people")).body.people.map((p: any) => p.seat_id)).not.toContain(seatId);
    });

    it("a seat id that is none of this business's is 404", async () => {
      expect((await api(session(owner), "/api/v1/people/seats/999999/role", { method: "POST", body: { role: "viewer" } })).status).toBe(404);
      expect((await api(session(owner), "/api/v1/people/seats/999999/revoke", { method: "POST" })).status).toBe(404);
    });
  });

  it("a co-owner manages people too, and each change names them: person:<id>", async () => {
    const coOwner = await seatPerson(owner, "owner", "Cora Owner");
    const actor = (await api({ session: coOwner.session }, "/api/v1/me")).body.auth.actor;
    expect(actor).toMatch(/^person:p[0-9a-f]{16}$/);
    const invited = await inviteByApi({ session: coOwner.session }, uniqueEmail("by-co-owner"), "viewer");
    expect(invited.status).toBe(201);
    expect(invited.body.invitation.invited_by).toBe(actor);
    const seated = await seatPerson(owner, "viewer", "Vic Viewer");
    const seatId = (await api(session(owner), "/api/v1/people")).body.people.find((p: any) => p.email === seated.email).seat_id;
    const changed = await api({ session: coOwner.session }, `/api/v1/people/seats/${seatId}/role`, { method: "POST", body: { role: "bookkeeper" } });
    expect(changed.body.seat.roles.at(-1)).toMatchObject({ role: "bookkeeper", by: actor });
    const revoked = await api({ session: coOwner.session }, `/api/v1/people/seats/${seatId}/revoke`, { method: "POST" });
    expect(revoked.body.seat.revoked_by).toBe(actor);
  });

  it("a token never manages people, whatever its scope: 403 session_only", async () => {
    const answer = await api(rw(owner), "/api/v1/people/invitations", { method: "POST", body: { email: uniqueEmail("by-token"), role: "owner" } });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe("session_only");
  });

  it("a POST to the people list is 405 naming the verb that adds to it", async () => {
    const answer = await api(session(owner), "/api/v1/people", { method: "POST", body: {} });
    expect(answer.status).toBe(405);
    expect(answer.body.detail).toContain("invite_person");
  });
});

describe("people are facts: the index refuses to edit or delete them", () => {
  let seatId: number;
  let invitationId: number;
  beforeAll(async () => {
    const owner = await createTenant();
    const person = await seatPerson(owner, "bookkeeper");
    const listed = (await api(session(owner), "/api/v1/people")).body;
    seatId = listed.people.find((p: any) => p.email === person.email).seat_id;
    await api(session(owner), `/api/v1/people/seats/${seatId}/role`, { method: "POST", body: { role: "viewer" } });
    invitationId = (await inviteByApi(session(owner), uniqueEmail("kept"), "viewer")).body.invitation.invitation_id;
    await api(session(owner), `/api/v1/people/invitations/${invitationId}/withdraw`, { method: "POST" });
    await api(session(owner), `/api/v1/people/seats/${seatId}/revoke`, { method: "POST" });
  });

  const refused = (sql: string, ...binds: unknown[]) => expect(env.INDEX_DB.prepare(sql).bind(...binds).run()).rejects.toThrow(/append-only/);

  it("a seat's role, its person and its revocation are never rewritten, and no seat is deleted", async () => {
    await refused("UPDATE seats SET role = 'owner' WHERE id = ?", seatId);
    await refused("UPDATE seats SET revoked_at = '2030-01-01T00:00:00.000Z' WHERE id = ?", seatId);
    await refused("DELETE FROM seats WHERE id = ?", seatId);
  });

  it("a change of role is never rewritten or deleted", async () => {
    await refused("UPDATE seat_roles SET role = 'owner' WHERE seat_id = ?", seatId);
    await refused("DELETE FROM seat_roles WHERE seat_id = ?", seatId);
  });

  it("an invitation is only stamped, once, and never deleted", async () => {
    await refused("UPDATE invitations SET role = 'owner' WHERE id = ?", invitationId);
    await refused("UPDATE invitations SET withdrawn_at = NULL WHERE id = ?", invitationId);
    await refused("DELETE FROM invitations WHERE id = ?", invitationId);
  });

  it("a live seat and a pending invitation take their stamp", async () => {
    // The stamps the domain makes are the ones the triggers let through (the tests above made them).
    const seat = await env.INDEX_DB.prepare("SELECT revoked_at FROM seats WHERE id = ?").bind(seatId).first<{ revoked_at: string | null }>();
    const invitation = await env.INDEX_DB.prepare("SELECT withdrawn_at FROM invitations WHERE id = ?").bind(invitationId).first<{ withdrawn_at: string | null }>();
    expect(seat!.revoked_at).not.toBeNull();
    expect(invitation!.withdrawn_at).not.toBeNull();
  });
});
