/** What the rule pattern tests of the endpoints share: plain re2js as the oracle, and the shape of a refusal. */
import { RE2JS } from "re2js";
import { expect } from "vitest";
import { api, rw, type SandboxTenant } from "../../../test/fixtures/sandbox";

export const rule = (rule_key: string, match_value: string, fields: Record<string, unknown> = {}) => ({
  rule_key,
  match_kind: "description_regex",
  match_value,
  category: "Fuzzed",
  ...fields,
});

/** What plain re2js makes of a pattern a rule would hold: null where the service must refuse it (empty, over 200 characters, not RE2). */
export function re2Of(pattern: string): RE2JS | null {
  if (pattern === "" || pattern.length > 200) return null;
  try {
    return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch {
    return null;
  }
}

/** A 400 problem whose field errors name exactly `fields`, each with a message. */
export function expectRefusal(answer: { status: number; body: any; headers: Headers }, fields: string[], pattern: string): void {
  expect(answer.status, `${pattern}: ${JSON.stringify(answer.body)}`).toBe(400);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(answer.body.errors.map((e: any) => e.field), pattern).toEqual(fields);
  for (const error of answer.body.errors) expect(error.message).toMatch(/\S/);
}

export interface Line {
  aId: number;
  description: string;
}

/** The tenant's exceptions: with no judgement made, exactly its undecided lines. */
export async function undecided(t: SandboxTenant): Promise<Line[]> {
  const lines: Line[] = [];
  for (let page = 1; ; page++) {
    const answer = await api(rw(t), `/api/v1/exceptions?page=${page}&per_page=100`);
    expect(answer.status).toBe(200);
    lines.push(...answer.body.exceptions.map((e: any) => ({ aId: e.a_id, description: e.description })));
    if (lines.length >= answer.body.total) return lines;
  }
}
