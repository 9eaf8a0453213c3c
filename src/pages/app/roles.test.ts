/**
 * The workspace offers each person the forms their role may send: a viewer's pages (and a
 * read-only token's) hold no form that changes the books, the owner's and a bookkeeper's
 * do, and a write posted anyway without its form is still refused as the API refuses it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { as, seatPerson, type Person } from "../../../test/fixtures/people";
import { api, ro, rw, type SandboxTenant } from "../../../test/fixtures/sandbox";
import { bakery, page, queueIds, textOf } from "../../../test/fixtures/workspace";

/** The forms a page offers that change something: every POST form and htmx post, but signing out and the practice dashboard's switch. */
function writeForms(html: string): string[] {
  const posts = [...html.matchAll(/<form\b[^>]*\bmethod="post"[^>]*>/g)].map((m) => /action="([^"]*)"/.exec(m[0])?.[1] ?? "(none)");
  const htmx = [...html.matchAll(/\bhx-post="([^"]*)"/g)].map((m) => m[1]!);
  return [...posts, ...htmx].filter((action) => action !== "/signout" && action !== "/app/practice/switch");
}

describe("the forms a role is offered", () => {
  let owner: SandboxTenant;
  let viewer: Person;
  let bookkeeper: Person;
  let line: number;
  let pages: string[];
  beforeAll(async () => {
    owner = await bakery({ rules: [{ rule_key: "coffee", match_kind: "description_regex", match_value: "BLUE BOTTLE", category: "Meals" }] });
    viewer = await seatPerson(owner, "viewer", "Vera Viewer");
    bookkeeper = await seatPerson(owner, "bookkeeper", "Bo Keeper");
    line = queueIds((await page(owner, "/app/review")).html)[0]!;
    const oracle = (await api(rw(owner), "/api/v1/reports/pnl-rolling?as_of=2026-11-20&form=full")).body;
    expect((await api(rw(owner), "/api/v1/reports/pnl-parity", { method: "POST", body: { oracle } })).status).toBe(200);
    pages = [
      "/app/review",
      "/app/transactions",
      `/app/transactions/A/${line}`,
      "/app/rules",
      "/app/rules/revisions?key=coffee",
      "/app/rules/new",
      `/app/rules/new?from=${line}`,
      "/app/reports",
      "/app/reports/verdicts/2026-11-20",
      "/app/reports/lines?as_of=2026-11-20&window=30d&section=biz_expenses&category=Meals&period=current",
    ];
  });

  it("a viewer's pages hold no form that writes, and say so where one would be", async () => {
    for (const path of pages) {
      const answer = await page(as(viewer), path);
      expect(answer.status, path).toBe(200);
      expect(writeForms(answer.html), path).toEqual([]);
      expect(answer.html, path).toContain('data-testid="viewer-notice"');
    }
    expect(textOf((await page(as(viewer), "/app/rules/new")).html)).toContain("Rules are made by the owner and the bookkeepers");
    expect((await page(as(viewer), "/app/reports")).html).toContain('data-testid="no-export-form"');
    // The review keeps what a viewer reads: the lines, the suggestions and why each waits.
    const review = (await page(as(viewer), "/app/review")).html;
    expect(queueIds(review)).toContain(line);
    expect(review).toContain(`/app/transactions/A/${line}/why`);
  });

  it("a read-only token's pages hold none either", async () => {
    for (const path of pages) {
      const answer = await page(owner, path, { bearer: ro(owner).bearer });
      expect(answer.status, path).toBe(200);
      expect(writeForms(answer.html), path).toEqual([]);
    }
  });

  it("the owner's and a bookkeeper's pages hold the forms, so the check above can find them", async () => {
    for (const who of [owner, as(bookkeeper)]) {
      const forms = (await Promise.all(pages.map(async (path) => writeForms((await page(who, path)).html)))).flat();
      for (const action of ["/app/review/decide", "/app/review/bulk", `/app/transactions/A/${line}/decide`, "/app/rules", "/app/rules/retire", "/app/rules/move-to-end", "/app/reports/export"]) {
        expect(forms, action).toContain(action);
      }
    }
  });

  it("a viewer's write posted anyway is refused as the API refuses it, and changes nothing", async () => {
    const posted: [string, Record<string, string>][] = [
      ["/app/review/decide", { line: String(line), category: "Meals", action: "categorise" }],
      ["/app/review/bulk", { line: String(line), category: "Meals", action: "label" }],
      [`/app/transactions/A/${line}/decide`, { category: "Meals", action: "categorise" }],
      ["/app/rules", { rule_key: "viewer-rule", match_kind: "amount_sign", match_value: "out", category: "Meals" }],
      ["/app/rules/retire", { rule_key: "coffee" }],
      ["/app/rules/move-to-end", { rule_key: "coffee" }],
      ["/app/reports/export", {}],
      ["/app/settings/sync", {}],
    ];
    for (const [path, form] of posted) {
      const answer = await page(as(viewer), path, { form });
      expect(answer.status, path).toBe(403);
      expect(textOf(answer.html), path).toContain("viewer");
    }
    expect(queueIds((await page(owner, "/app/review")).html)).toContain(line);
    const rules = (await api(rw(owner), "/api/v1/rules")).body.rules;
    expect(rules.map((r: any) => [r.rule_key, r.revision, r.retired])).toEqual([["coffee", 1, false]]);
  });
});
