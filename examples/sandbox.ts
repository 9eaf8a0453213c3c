/**
 * The sandbox steps the examples share: they stand in for signing up and for the bank,
 * which are not API operations. Everything after them goes through the API.
 */

export const BASE_URL = process.env.LEDGER_URL ?? "http://127.0.0.1:8787";

/** A date `days` before today, ISO (America/Chicago, the books' calendar). */
export function daysAgo(days: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Chicago" }).format(new Date());
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
}

/** Signs up a sandbox tenant and queues a small business's month at the sandbox bank. */
export async function sandboxTenant(prefix: string): Promise<{ tenant: string; token: string }> {
  const tenant = `${prefix}-${Date.now().toString(36)}`;
  const signUp = await fetch(`${BASE_URL}/sandbox/tenants`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ tenant }),
  });
  if (signUp.status !== 201) throw new Error(`sandbox sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const { tokens } = (await signUp.json()) as { tokens: { read_write: string } };
  // Aggregator sign: positive = money out.
  const line = (id: string, name: string, amount: number, days: number) => ({ transaction_id: id, account_id: "acc_checking", name, amount, date: daysAgo(days) });
  const bank = await fetch(`${BASE_URL}/sandbox/tenants/${tenant}/bank`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      accounts: [{ account_id: "acc_checking", name: "Business Checking", mask: "0042" }],
      added: [
        line("t1", "STRIPE PAYOUT", -1250, 2),
        line("t2", "STRIPE PAYOUT", -980.4, 9),
        line("t3", "SYSCO FOODS #221", 312.75, 3),
        line("t4", "SYSCO FOODS #221", 298.1, 12),
        line("t5", "GUSTO PAYROLL", 800, 5),
        line("t6", "OWNER TRANSFER", 250, 6),
      ],
    }),
  });
  if (bank.status !== 202) throw new Error(`the sandbox bank refused the lines: ${bank.status} ${await bank.text()}`);
  return { tenant, token: tokens.read_write };
}

export const CATEGORIES = [
  { name: "Sales", header: "income" },
  { name: "Food cost", header: "cogs" },
  { name: "Payroll", header: "expense" },
  { name: "Owner draw", header: "draw" },
] as const;

export const RULES = [
  { rule_key: "stripe", match_kind: "description_regex", match_value: "^STRIPE", category: "Sales" },
  { rule_key: "sysco", match_kind: "description_regex", match_value: "^SYSCO", category: "Food cost" },
  { rule_key: "gusto", match_kind: "description_exact", match_value: "GUSTO PAYROLL", category: "Payroll" },
  { rule_key: "owner", match_kind: "description_exact", match_value: "OWNER TRANSFER", category: "Owner draw" },
] as const;

export function printPnl(report: { as_of: string; windows: Record<string, { sections: Record<string, { current: number; prior: number }> }> }): void {
  console.log(`Rolling P&L as of ${report.as_of}`);
  for (const [window, w] of Object.entries(report.windows)) {
    for (const [section, s] of Object.entries(w.sections)) {
      console.log(`  ${window.padEnd(4)} ${section.padEnd(13)} ${(s.current / 100).toFixed(2).padStart(10)}  (prior ${(s.prior / 100).toFixed(2)})`);
    }
  }
}
