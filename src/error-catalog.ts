/**
 * Every refusal the service answers, by its `code`: the status it comes with, its title (the
 * problem's `title`) and when it is given. ApiError takes its status and title from here;
 * each endpoint declares the codes it may answer in the endpoint index, so the OpenAPI
 * document lists them; docs/errors.md is generated from this table (`npm run docs:errors`).
 */
export interface ErrorKind {
  status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 415 | 429 | 500 | 503;
  title: string;
  /** When it is given, for a person reading the reference (Markdown). */
  when: string;
}

export const ERROR_CATALOG = {
  invalid_request: {
    status: 400,
    title: "Invalid request",
    when: "A field is refused; `errors` lists every one: `field` (`body.rules.3.category`, `query.per_page`, `path.src_id`), `message`, and the issue `code`.",
  },
  malformed_json: { status: 400, title: "Malformed JSON", when: "The body is not JSON (whitespace alone included)." },
  malformed_form: { status: 400, title: "Malformed form", when: "A page's or the SMS webhook's form body cannot be read as a form." },
  credential_missing: { status: 401, title: "Credential missing", when: "No credential was sent (the answer carries `WWW-Authenticate: Bearer`)." },
  credential_refused: { status: 401, title: "Credential refused", when: "The credential is unknown, expired, revoked or malformed." },
  read_only_token: { status: 403, title: "Read-only token", when: "A read-only token on a write." },
  session_only: { status: 403, title: "Session only", when: "A bearer token on an operation only a browser session may call." },
  role_refused: {
    status: 403,
    title: "Role refused",
    when: "A person's session whose role in the tenant does not pass the operation's credential rule: a viewer on a write, a bookkeeper on what only the owner does (tokens, grants, people, destinations, phone, banks).",
  },
  cross_origin: { status: 403, title: "Cross-origin request", when: "A session request that changes something, sent from another origin." },
  auditor_scope: { status: 403, title: "Auditor scope", when: "An auditor grant token anywhere but the auditor view and the parity verdicts." },
  auditor_only: { status: 403, title: "Auditor only", when: "Anything but an auditor grant token on the auditor view." },
  grant_revoked: { status: 403, title: "Grant revoked", when: "The auditor grant token's grant was revoked." },
  grant_expired: { status: 403, title: "Grant expired", when: "The auditor grant token's grant is past its end." },
  request_used: { status: 403, title: "Grant request used", when: "Confirming a grant request that was confirmed already." },
  request_expired: { status: 403, title: "Grant request expired", when: "Confirming a grant request past its time to confirm." },
  too_many_attempts: { status: 403, title: "Too many attempts", when: "Confirming a grant request that has spent its attempts at the code." },
  name_mismatch: { status: 403, title: "Name mismatch", when: "Confirming a grant with a viewer's name other than the offer's." },
  code_wrong: { status: 403, title: "Code wrong", when: "Confirming a grant with a code (or a viewer's channel) that does not match." },
  tenant_mismatch: { status: 403, title: "Tenant mismatch", when: "A `tenant` parameter naming a tenant other than the credential's own." },
  signature_invalid: { status: 403, title: "Signature invalid", when: "A webhook (the SMS carrier's, the aggregator's) without its sender's valid signature." },
  email_unverified: { status: 403, title: "Email unverified", when: "Linking a bank before the owner's email is verified." },
  not_found: { status: 404, title: "Not found", when: "Nothing of the tenant's at that path or id (another tenant's resource included)." },
  explanation_read_disabled: { status: 404, title: "Explanation read disabled", when: "The deployment does not enable the explanation read (switch `EXPLANATION_READ`)." },
  taxonomy_read_disabled: { status: 404, title: "Taxonomy read disabled", when: "The deployment does not enable the taxonomy read (switch `TAXONOMY_READ`)." },
  category_verbs_disabled: { status: 404, title: "Category verbs disabled", when: "The deployment does not enable the new-category verbs (switch `CATEGORY_VERBS`)." },
  unknown_tool: { status: 404, title: "Unknown tool", when: "The tool face: no tool has that name (a tool error, not an HTTP answer)." },
  method_not_allowed: { status: 405, title: "Method not allowed", when: "The path is served with other methods (named in `Allow`); a POST to a collection's read (`/api/v1/rules`, `/api/v1/categories`, `/api/v1/taxonomy`) names the verbs that add to it in `detail`." },
  ledger_refusal: {
    status: 409,
    title: "Ledger refusal",
    when: "The ledger refused the write; its words are in `detail` (a bulk verb adds `row`, the refused row, and `created`, the rows before it).",
  },
  nothing_connected: { status: 409, title: "Nothing connected", when: "A sync asked for while no bank is connected." },
  local_disagrees: { status: 409, title: "Local report disagrees", when: "The parity check's asserted `local` numbers disagree with the books; nothing was filed." },
  tenant_taken: { status: 409, title: "Tenant taken", when: "A sign-up naming a tenant handle that is taken (by another sign-up: the same sign-up sent again with its `idempotency_key` answers as it did)." },
  handle_reserved: { status: 409, title: "Handle reserved", when: "A sign-up naming a tenant handle the service keeps for itself (`api`, `admin`, `sandbox`, `www`, `docs`, `signin`, `signup`, …)." },
  already_seated: { status: 409, title: "Already seated", when: "Inviting an address whose person holds a live seat in the tenant already (change the seat's role instead)." },
  invitation_accepted: { status: 409, title: "Invitation accepted", when: "Withdrawing an invitation that was accepted: its person holds the seat (revoke the seat instead)." },
  seat_revoked: { status: 409, title: "Seat revoked", when: "Changing the role of a seat that was revoked: it reaches nothing, and a new seat needs a new invitation." },
  body_too_large: { status: 413, title: "Body too large", when: "The body is over 1 MiB." },
  unsupported_media_type: { status: 415, title: "Unsupported media type", when: "A body not declared `application/json`." },
  too_many_requests: { status: 429, title: "Too many attempts", when: "The attempt limits: too many failed sign-ins or grant codes lately (with `Retry-After`)." },
  rate_limited: {
    status: 429,
    title: "Rate limited",
    when: "The general rate limits per credential and per client address, and the public operations' own limits per client address (sign-ups, password resets) (with `Retry-After`).",
  },
  internal_error: { status: 500, title: "Internal error", when: "A fault of ours; nothing internal is named, and it was logged." },
  sms_unavailable: { status: 503, title: "SMS unavailable", when: "The deployment holds no outbound SMS credential, so a grant code or a reply cannot be texted." },
  sms_send_failed: { status: 503, title: "SMS send failed", when: "The carrier did not take the text." },
  grant_key_missing: { status: 503, title: "Grant key missing", when: "The deployment holds no key for grant codes (`GRANT_CODE_KEY`)." },
  aggregator_unavailable: {
    status: 503,
    title: "Aggregator unavailable",
    when: "The deployment holds no aggregator credentials, or the aggregator did not do what a bank link or a webhook's check needed; nothing was linked.",
  },
  bank_token_key_missing: { status: 503, title: "Bank token key missing", when: "The deployment holds no key (`BANK_TOKEN_KEY`) to encrypt or read bank access tokens; nothing was linked." },
  email_unavailable: { status: 503, title: "Email unavailable", when: "The deployment holds no mail service (`EMAIL_API_TOKEN`, `EMAIL_FROM`), so the owner's email could never be verified; nothing was written." },
  destinations_unreadable: { status: 503, title: "Destinations unreadable", when: "The export's destination list could not be read; nothing was pushed." },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];
