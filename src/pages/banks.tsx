/**
 * /settings, banks: the tenant's bank connections with their status, a bank to connect in
 * the aggregator's own flow (its page opens from here), a bank that wants its login again
 * signed in to again (update mode), and a connection disconnected.
 */
import type { Connection } from "../ledger/feed/connections";
import { CONNECTION_CAPS, type Tier } from "../tiers";
import { Page } from "./layout";

const STATUS_WORDS: Record<Connection["status"], string> = {
  connected: "connected",
  login_required: "needs you to sign in again",
  error: "in error",
  disconnected: "disconnected",
};

export function BanksSection(props: { connections: Connection[]; tier: Tier; canLink: boolean }) {
  const live = props.connections.filter((c) => c.status !== "disconnected");
  const cap = CONNECTION_CAPS[props.tier];
  return (
    <section aria-label="Banks">
      <h2>Banks</h2>
      <p>
        Your books are kept from these banks' feeds; each syncs when the bank says it has new lines, and on every sync you
        ask for. The {props.tier} tier holds {cap} bank connection{cap === 1 ? "" : "s"}; {live.length} in use.
      </p>
      {props.connections.length === 0 ? (
        <p data-testid="no-banks">No bank is connected.</p>
      ) : (
        <table>
          <thead>
            <tr><th>Id</th><th>Bank</th><th>Status</th><th>Since</th><th></th></tr>
          </thead>
          <tbody>
            {props.connections.map((c) => (
              <tr data-testid="bank">
                <td>{c.id}</td>
                <td>{c.institution ?? (c.provider === "sandbox" ? "Sandbox bank" : "Bank")}</td>
                <td>
                  {STATUS_WORDS[c.status]}
                  {c.statusDetail ? <small class="detail" data-testid="bank-status-detail">: {c.statusDetail}</small> : null}
                </td>
                <td>{c.statusAt.slice(0, 10)}</td>
                <td>
                  {c.status === "login_required" || c.status === "error" ? (
                    c.itemId === null ? null : (
                      <form method="post" action={`/settings/banks/${c.id}/reauthorise`}>
                        <button type="submit" aria-label={`Sign in again to bank ${c.id}`}>Sign in again</button>
                      </form>
                    )
                  ) : null}
                  {c.status === "disconnected" ? null : (
                    <form method="post" action={`/settings/banks/${c.id}/disconnect`}>
                      <button type="submit" aria-label={`Disconnect bank ${c.id}`}>Disconnect</button>
                    </form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {props.canLink ? (
        live.length < cap ? (
          <form method="post" action="/settings/banks/link">
            <button type="submit">Connect a bank</button>
          </form>
        ) : (
          <p>To connect another bank, disconnect one first{props.tier === "free" ? " or move to the paid tier" : ""}.</p>
        )
      ) : (
        <p>Connecting a bank waits until your email is verified.</p>
      )}
    </section>
  );
}

/** The aggregator's page is ready: the browser goes there (a link: the pages run no script and may post only to this site). */
export function ContinueToBank(props: { url: string; repair: boolean }) {
  return (
    <Page title="Connect a bank">
      <h1>{props.repair ? "Sign in to your bank again" : "Connect a bank"}</h1>
      <p>
        Your bank's page is ready at the aggregator, which connects it for us: choose your bank there and sign in. It sends
        you back here when you are done. The link works for 30 minutes.
      </p>
      <p>
        <a href={props.url} data-testid="continue-to-bank" rel="noreferrer">Continue to your bank</a>
      </p>
      <p><a href="/settings">Back to settings</a></p>
    </Page>
  );
}
