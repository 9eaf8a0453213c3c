/**
 * /settings, the customer's phone, auditor grants and the message thread: offer a grant
 * (the code goes to the enrolled phone), confirm it with the code, revoke it; draft a
 * reply and release it (drafts are invisible to the API until released).
 */
import type { GrantView } from "../auth/grants";
import { showableText } from "../ledger/reports/export/formats";
import type { MessageRow } from "../ledger/messages";

export interface PendingOffer {
  requestId: number;
  viewerName: string;
  viewerChannel: string;
}

export function PhoneSection(props: { phone: string }) {
  return (
    <section aria-label="Enrolled phone">
      <h2>Your phone</h2>
      <p>Grant codes and replies are texted to <code data-testid="phone">{props.phone}</code>.</p>
      <form method="post" action="/settings/phone">
        <label for="phone">New phone (E.164, e.g. +15555550123)</label>
        <input id="phone" name="phone" type="tel" required pattern="\+[1-9][0-9]{6,14}" />
        <button type="submit">Change the phone</button>
      </form>
    </section>
  );
}

export function GrantsSection(props: { grants: GrantView[]; pending?: PendingOffer; grantToken?: string }) {
  return (
    <section aria-label="Auditor grants">
      <h2>Auditor grants</h2>
      <p>A grant lets one viewer read your monthly totals and owner add-backs for 24 hours. The code is texted to your phone.</p>
      {props.grantToken ? (
        <div aria-label="New grant token">
          <p>Give this token to the viewer now: it is shown once and reads only the auditor view, for 24 hours.</p>
          <p class="secret" data-testid="grant-token">{props.grantToken}</p>
        </div>
      ) : null}
      {props.pending ? (
        <form method="post" action={`/settings/grants/${props.pending.requestId}/confirm`} aria-label="Confirm the grant">
          <p>A code was texted to your phone for request {props.pending.requestId}.</p>
          <input type="hidden" name="viewer_name" value={props.pending.viewerName} />
          <input type="hidden" name="viewer_channel" value={props.pending.viewerChannel} />
          <label for="grant-code">Code</label>
          <input id="grant-code" name="code" inputmode="numeric" pattern="[0-9]{6}" required autocomplete="one-time-code" />
          <button type="submit">Confirm the grant</button>
        </form>
      ) : (
        <form method="post" action="/settings/grants" aria-label="Offer a grant">
          <label for="viewer-name">Viewer's name</label>
          <input id="viewer-name" name="viewer_name" required maxlength={100} />
          <label for="viewer-channel">Viewer's phone (E.164)</label>
          <input id="viewer-channel" name="viewer_channel" type="tel" required pattern="\+[1-9][0-9]{6,14}" />
          <button type="submit">Offer a grant</button>
        </form>
      )}
      <table>
        <thead>
          <tr><th>Id</th><th>Viewer</th><th>Status</th><th>Expires</th><th>Last read</th><th></th></tr>
        </thead>
        <tbody>
          {props.grants.map((g) => (
            <tr data-testid="grant">
              <td>{g.grant_id}</td>
              <td>{g.viewer_name}</td>
              <td data-testid="grant-status">{g.status}</td>
              <td>{g.expires_at.slice(0, 16).replace("T", " ")}</td>
              <td>{g.last_read_at ? g.last_read_at.slice(0, 16).replace("T", " ") : "never"}</td>
              <td>
                {g.status === "live" ? (
                  <form method="post" action={`/settings/grants/${g.grant_id}/revoke`}>
                    <button type="submit" aria-label={`Revoke the grant to ${g.viewer_name}`}>Revoke</button>
                  </form>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function ThreadSection(props: { messages: MessageRow[]; drafts: { message_id: number; body: string; actor: string }[] }) {
  return (
    <section aria-label="Messages">
      <h2>Messages</h2>
      {props.drafts.map((d) => (
        <form method="post" action={`/settings/messages/${d.message_id}/release`} data-testid="draft">
          <p>Draft by {d.actor}: {showableText(d.body)}</p>
          <button type="submit">Release and send</button>
        </form>
      ))}
      <form method="post" action="/settings/messages">
        <label for="reply">Draft a reply (it is sent only when released)</label>
        <textarea id="reply" name="body" required maxlength={1600}></textarea>
        <button type="submit">Save the draft</button>
      </form>
      <ul>
        {props.messages.map((m) => (
          <li data-testid="message">
            {/* An inbound text is stored as the carrier delivered it; its controls show as U+FFFD here. */}
            {m.direction === "in" ? "Customer" : "Reply"} ({m.status}, {m.created_at.slice(0, 16).replace("T", " ")}): {showableText(m.body)}
          </li>
        ))}
      </ul>
    </section>
  );
}
