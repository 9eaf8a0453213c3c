/** /settings, the account: the business, the owner's email and whether it is verified (a new link on request). */
import type { TenantRecord } from "../auth/tenants";

export function AccountSection(props: { tenant: TenantRecord }) {
  const { tenant } = props;
  return (
    <section aria-label="Account">
      <h2>Account</h2>
      <p>
        {tenant.businessName ?? tenant.id} · tier <strong>{tenant.tier}</strong>
        {tenant.ownerEmail ? <> · owner email <code>{tenant.ownerEmail}</code></> : null}
      </p>
      {tenant.ownerEmail && tenant.emailVerifiedAt === null ? (
        <div data-testid="email-unverified">
          <p class="error">
            Your email is not verified yet: follow the link mailed to {tenant.ownerEmail}. Until then no bank can be connected.
          </p>
          <form method="post" action="/settings/email/verify">
            <button type="submit">Mail me another link</button>
          </form>
        </div>
      ) : tenant.ownerEmail ? (
        <p data-testid="email-verified">Your email is verified.</p>
      ) : null}
    </section>
  );
}
