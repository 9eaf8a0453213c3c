/**
 * /app/people: the tenant's people, for its owner (the `session` rule: the owner's session
 * only). Who holds a seat and with which role, the invitations still pending, an invitation
 * by email, a seat's role changed, a seat revoked and an invitation withdrawn: the same
 * domain calls as the API's people operations (auth/seats.ts). Another tenant's seat or
 * invitation is a 404.
 */
import { Hono } from "hono";
import { z } from "zod";
import { ROLE_WORDS } from "../../auth/caller";
import { emailAddress } from "../../auth/people";
import { changeSeatRole, INVITATION_DAYS, invitePerson, ownerEmailProblem, peopleOf, revokeSeat, withdrawInvitation } from "../../auth/seats";
import { paramInteger, singleLineText } from "../../endpoints/shared";
import { ApiError, settle } from "../../errors";
import { formOf } from "../../http/form-body";
import { ROLES, type Role } from "../../index-db/schema";
import { access, readQuery, type Workspace, type WorkspaceEnv } from "./access";
import { AppPage, whoOf } from "./layout";
import { ErrorSummary, Notice, when } from "./ui";

export const peoplePages = new Hono<WorkspaceEnv>();

const noticeQuery = z.object({
  invited: singleLineText().max(254).optional(),
  unsent: singleLineText().max(500).optional(),
  revoked: singleLineText().max(300).optional(),
  withdrawn: singleLineText().max(254).optional(),
  role_changed: singleLineText().max(400).optional(),
});

type PeopleNotice = z.output<typeof noticeQuery>;

interface PeoplePageProps {
  d1: D1Database;
  ws: Workspace;
  notice?: PeopleNotice;
  /** A refused invitation: the form's fields as typed and why. */
  refused?: { email: string; role: string; errors: Record<string, string> };
}

async function PeoplePage(props: PeoplePageProps) {
  const { ws, notice = {}, refused } = props;
  const [listed, queue] = await Promise.all([peopleOf(props.d1, ws.caller.tenant.id, ws.now), ws.ledger.queueSize(ws.face)]);
  const owner = ws.caller.tenant;
  return (
    <AppPage title="People" area="people" tenant={owner.id} who={whoOf(ws.caller)} queue={settle(queue)}>
      {notice.invited ? (
        <Notice>
          An invitation went to <strong>{notice.invited}</strong>; its link works once, within {INVITATION_DAYS} days.
        </Notice>
      ) : null}
      {notice.unsent ? <p class="notice-error" role="alert">The invitation is filed, but its mail did not go: {notice.unsent}. Withdraw it and invite again later.</p> : null}
      {notice.revoked ? <Notice>The seat of <strong>{notice.revoked}</strong> is revoked: they reach nothing here from now on.</Notice> : null}
      {notice.withdrawn ? <Notice>The invitation to <strong>{notice.withdrawn}</strong> is withdrawn: its link opens nothing.</Notice> : null}
      {notice.role_changed ? <Notice>{notice.role_changed}</Notice> : null}
      <p>
        What each role may do: {ROLES.map((r) => ROLE_WORDS[r]).join("; ")}. The same rules govern the API (each endpoint's credential rule).
      </p>
      <table data-testid="people">
        <caption>Who holds a seat</caption>
        <thead>
          <tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Since</th><th scope="col"><span class="vh">Action</span></th></tr>
        </thead>
        <tbody>
          <tr>
            <td>The owner (signs in with the tenant's password)</td>
            <td>{owner.ownerEmail ?? "none given"}</td>
            <td>owner</td>
            <td>{when(owner.createdAt)}</td>
            <td></td>
          </tr>
          {listed.seats.map((s) => (
            <tr data-seat={s.seatId}>
              <td>{s.name}</td>
              <td>{s.email}</td>
              <td>{s.role}</td>
              <td>{when(s.since)}</td>
              <td>
                <form method="post" action={`/app/people/seats/${s.seatId}/role`} class="inline">
                  <label for={`role-${s.seatId}`} class="vh">The new role of {s.name}</label>
                  <select id={`role-${s.seatId}`} name="role">
                    {ROLES.map((r) => <option value={r} selected={r === s.role}>{r}</option>)}
                  </select>
                  <button type="submit" class="quiet" aria-label={`Change the role of ${s.name}`}>Change role</button>
                </form>
                <form method="post" action={`/app/people/seats/${s.seatId}/revoke`}>
                  <button type="submit" class="quiet" aria-label={`Revoke the seat of ${s.name}`}>Revoke</button>
                </form>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Pending invitations</h2>
      {listed.pending.length === 0 ? (
        <p data-testid="no-pending">No invitation is pending.</p>
      ) : (
        <table data-testid="pending">
          <caption>Invitations not yet accepted</caption>
          <thead>
            <tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Sent</th><th scope="col">Lapses</th><th scope="col"><span class="vh">Action</span></th></tr>
          </thead>
          <tbody>
            {listed.pending.map((i) => (
              <tr data-invitation={i.id}>
                <td>{i.email}</td>
                <td>{i.role}</td>
                <td>{when(i.createdAt)}</td>
                <td>{when(i.expiresAt)}</td>
                <td>
                  <form method="post" action={`/app/people/invitations/${i.id}/withdraw`}>
                    <button type="submit" class="quiet" aria-label={`Withdraw the invitation to ${i.email}`}>Withdraw</button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2 id="invite">Invite someone</h2>
      {refused ? <ErrorSummary errors={refused.errors} labels={{ email: "Email", role: "Role" }} ids={{ email: "invite-email", role: "invite-role" }} /> : null}
      <form method="post" action="/app/people/invite">
        <label for="invite-email">Email</label>
        <input id="invite-email" name="email" type="email" required maxlength={254} autocomplete="off" value={refused?.email ?? ""} aria-invalid={refused?.errors.email ? "true" : undefined} />
        <label for="invite-role">Role</label>
        <select id="invite-role" name="role">
          <option value="bookkeeper" selected={refused?.role !== "viewer" && refused?.role !== "owner"}>bookkeeper</option>
          <option value="viewer" selected={refused?.role === "viewer"}>viewer</option>
          <option value="owner" selected={refused?.role === "owner"}>owner</option>
        </select>
        <button type="submit">Send the invitation</button>
      </form>
    </AppPage>
  );
}

peoplePages.get("/", access("session"), async (c) => {
  const ws = c.get("workspace");
  return c.html(<PeoplePage d1={c.env.INDEX_DB} ws={ws} notice={readQuery(c, noticeQuery)} />);
});

peoplePages.post("/invite", access("session"), async (c) => {
  const ws = c.get("workspace");
  const form = await formOf(c);
  const typed = { email: typeof form.email === "string" ? form.email : "", role: typeof form.role === "string" ? form.role : "" };
  const errors: Record<string, string> = {};
  const email = emailAddress(typed.email);
  if (email === null) errors.email = "an email address, such as dana@books.example";
  if (!(ROLES as readonly string[]).includes(typed.role)) errors.role = `one of ${ROLES.join(", ")}`;
  const ownEmail = email === null ? null : ownerEmailProblem(ws.caller.tenant, email);
  if (ownEmail !== null) errors.email = ownEmail;
  if (Object.keys(errors).length > 0) return c.html(<PeoplePage d1={c.env.INDEX_DB} ws={ws} refused={{ ...typed, errors }} />, 400);
  let invited;
  try {
    invited = await invitePerson(c.env, ws.caller.tenant, { email: email!, role: typed.role as Role }, ws.caller.actor, new URL(c.req.url).origin, ws.now);
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "already_seated") throw error;
    return c.html(<PeoplePage d1={c.env.INDEX_DB} ws={ws} refused={{ ...typed, errors: { email: "this person holds a seat here already" } }} />, 409);
  }
  const notice: Record<string, string> = invited.mail.sent ? { invited: email! } : { unsent: invited.mail.reason };
  return c.redirect(`/app/people?${new URLSearchParams(notice)}`, 303);
});

function idParam(id: string): number {
  const parsed = paramInteger().safeParse(id);
  if (!parsed.success) throw ApiError.validation("path", parsed.error);
  return parsed.data;
}

peoplePages.post("/seats/:id/role", access("session"), async (c) => {
  const ws = c.get("workspace");
  const role = (await formOf(c)).role;
  if (typeof role !== "string" || !(ROLES as readonly string[]).includes(role)) {
    throw ApiError.invalid([{ field: "role", message: `one of ${ROLES.join(", ")}`, code: "invalid_value" }]);
  }
  const { seat, changed } = await changeSeatRole(c.env.INDEX_DB, ws.caller.tenant.id, idParam(c.req.param("id")), role as Role, ws.caller.actor, ws.now);
  const words = changed ? `${seat.name} (${seat.email}) is ${seat.role === "owner" ? "an owner" : `a ${seat.role}`} now.` : `${seat.name} (${seat.email}) was ${seat.role === "owner" ? "an owner" : `a ${seat.role}`} already.`;
  return c.redirect(`/app/people?${new URLSearchParams({ role_changed: words })}`, 303);
});

peoplePages.post("/seats/:id/revoke", access("session"), async (c) => {
  const ws = c.get("workspace");
  const revoked = await revokeSeat(c.env.INDEX_DB, ws.caller.tenant.id, idParam(c.req.param("id")), ws.caller.actor, ws.now);
  return c.redirect(`/app/people?${new URLSearchParams({ revoked: `${revoked.name} (${revoked.email})` })}`, 303);
});

peoplePages.post("/invitations/:id/withdraw", access("session"), async (c) => {
  const ws = c.get("workspace");
  const withdrawn = await withdrawInvitation(c.env.INDEX_DB, ws.caller.tenant.id, idParam(c.req.param("id")), ws.caller.actor, ws.now);
  return c.redirect(`/app/people?${new URLSearchParams({ withdrawn: withdrawn.email })}`, 303);
});
