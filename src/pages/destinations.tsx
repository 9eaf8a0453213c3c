/**
 * /settings, spreadsheet destinations: connect one (a spreadsheet id, a sheet and an OAuth
 * refresh token for the spreadsheet API, kept sealed; each push buys short-lived access
 * tokens with it) or disconnect one. While one is live, `export_books` pushes the books to
 * the newest live one instead of rendering the bundle. A sandbox deployment offers the
 * sandbox's refresh token and writes to its stand-in spreadsheets.
 */
import type { DestinationView } from "../index-db/destinations";
import { SANDBOX_REFRESH_TOKEN } from "../providers/spreadsheet/sandbox";

export function DestinationsSection(props: { destinations: DestinationView[]; sandbox: boolean; tenant: string }) {
  return (
    <section aria-label="Spreadsheet destinations">
      <h2>Spreadsheet destinations</h2>
      <p>
        With a destination connected, an export rewrites its sheet with your booked lines; without one, an export is a
        bundle of files to download.
      </p>
      {props.destinations.length === 0 ? (
        <p data-testid="no-destinations">None is connected.</p>
      ) : (
        <table>
          <thead>
            <tr><th>Id</th><th>Spreadsheet</th><th>Sheet</th><th>Connected</th><th>Status</th><th></th></tr>
          </thead>
          <tbody>
            {props.destinations.map((d) => (
              <tr data-testid="destination">
                <td>{d.id}</td>
                <td><code>{d.spreadsheetId}</code></td>
                <td>{d.sheet}</td>
                <td>{d.connectedAt.slice(0, 10)}</td>
                <td data-testid="destination-status">
                  {d.needsReconnect ? "connect it again: it was connected with a pasted access token, which is no longer kept" : "connected"}
                </td>
                <td>
                  <form method="post" action={`/settings/destinations/${d.id}/disconnect`}>
                    <button type="submit" aria-label={`Disconnect destination ${d.id}`}>Disconnect</button>
                  </form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <form method="post" action="/settings/destinations">
        <label for="spreadsheet-id">Spreadsheet id</label>
        <input id="spreadsheet-id" name="spreadsheet_id" required maxlength={200} pattern="[A-Za-z0-9_\-]+" />
        <label for="sheet">Sheet (tab); it is cleared on every push</label>
        <input id="sheet" name="sheet" required maxlength={100} value="Books" />
        <label for="sheet-token">OAuth refresh token for the spreadsheet API</label>
        <input
          id="sheet-token"
          name="refresh_token"
          type="password"
          autocomplete="off"
          required
          aria-describedby="sheet-token-hint"
          value={props.sandbox ? SANDBOX_REFRESH_TOKEN : undefined}
        />
        <p id="sheet-token-hint">
          A refresh token with the spreadsheets scope, minted for this deployment's OAuth client. It is kept sealed and
          never shown again; each push buys a short-lived access token with it.
          {props.sandbox ? (
            <>
              {" "}In the sandbox the token is filled in, any spreadsheet id works, and what a push writes is at{" "}
              <code>/sandbox/tenants/{props.tenant}/spreadsheets/&lt;spreadsheet id&gt;</code>.
            </>
          ) : null}
        </p>
        <button type="submit">Connect the spreadsheet</button>
      </form>
    </section>
  );
}

/** Why a connect form is refused, or null when it can be saved. */
export function destinationFormProblem(input: { spreadsheetId: string; sheet: string; refreshToken: string }): string | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(input.spreadsheetId)) return "The spreadsheet id is letters, digits, - and _ only.";
  if (input.sheet === "" || input.sheet.length > 100) return "Name the sheet (at most 100 characters).";
  if (input.refreshToken === "" || input.refreshToken.length > 4000) return "Paste the refresh token.";
  return null;
}
