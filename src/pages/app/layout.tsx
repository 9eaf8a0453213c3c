/**
 * The workspace's frame: a skip link, the navigation with the queue's size, the signed-in
 * tenant and sign-out, and the page's main landmark. Every page works as plain HTML; the
 * two scripts (htmx, pinned and served from here, and the keyboard shortcuts) only make
 * some actions happen in place.
 */
import type { Child } from "hono/jsx";
import { CREDENTIAL_RULES, type Caller } from "../../auth/caller";
import type { Role } from "../../index-db/schema";

export type Area = "review" | "transactions" | "rules" | "reports" | "settings" | "people" | "practice";

/** Each area, and whom the navigation shows it to: Settings and People by the `session` rule's roles (the owner's), Practice to a person. */
const AREAS: { area: Area; href: string; name: string; shown: (who: Who) => boolean }[] = [
  { area: "review", href: "/app/review", name: "Review", shown: () => true },
  { area: "transactions", href: "/app/transactions", name: "Transactions", shown: () => true },
  { area: "rules", href: "/app/rules", name: "Rules", shown: () => true },
  { area: "reports", href: "/app/reports", name: "Reports", shown: () => true },
  { area: "settings", href: "/app/settings", name: "Settings", shown: (who) => CREDENTIAL_RULES.session.roles.includes(who.role) },
  { area: "people", href: "/app/people", name: "People", shown: (who) => CREDENTIAL_RULES.session.roles.includes(who.role) },
  { area: "practice", href: "/app/practice", name: "Practice", shown: (who) => who.person !== null },
];

/** Who the page is shown to: their role in the tenant, and the person (null for the owner's session). */
export interface Who {
  role: Role;
  person: { name: string } | null;
}

const OWNER: Who = { role: "owner", person: null };

/** A caller as the frame shows them (an auditor never sees a page). */
export function whoOf(caller: Pick<Caller, "role" | "person">): Who {
  return { role: caller.role ?? "viewer", person: caller.person };
}

/**
 * htmx as the workspace uses it: no eval and no scripts from answers (the pages' CSP allows
 * neither), no injected styles, no history cache (a page of books is not kept in the
 * browser's storage), and refusals swapped in like answers, so their words are shown.
 */
export const HTMX_CONFIG = JSON.stringify({
  allowEval: false,
  allowScriptTags: false,
  includeIndicatorStyles: false,
  historyEnabled: false,
  historyCacheSize: 0,
  selfRequestsOnly: true,
  responseHandling: [
    { code: "204", swap: false },
    { code: "[2345]..", swap: true },
  ],
});

/** The queue's size as the navigation shows it; an answer made in place sends it again (`oob`) to keep it current. */
export function QueueCount(props: { queue: number; oob?: boolean }) {
  return (
    <span id="queue-count" class="count" hx-swap-oob={props.oob ? "true" : undefined}>
      {props.queue.toLocaleString("en-US")}
      <span class="vh"> {props.queue === 1 ? "line" : "lines"} in the queue</span>
    </span>
  );
}

export interface AppPageProps {
  title: string;
  area: Area;
  tenant: string;
  queue: number;
  /** Who is signed in; the owner's session when not given. */
  who?: Who;
  children: Child;
}

export function AppPage(props: AppPageProps) {
  const who = props.who ?? OWNER;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="htmx-config" content={HTMX_CONFIG} />
        <title>{props.title} · Ledger</title>
        <link rel="stylesheet" href="/app/assets/workspace.css" />
        <script src="/app/assets/htmx.min.js" defer></script>
        <script src="/app/assets/workspace.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to the content</a>
        <header class="top">
          <p class="brand">
            Ledger <span class="tenant">· {props.tenant}</span>
            <span class="who" data-testid="who"> · {who.person ? `${who.person.name}, ${who.role}` : "owner"}</span>
          </p>
          <nav aria-label="Workspace">
            <ul>
              {AREAS.filter((a) => a.shown(who)).map((a) => (
                <li>
                  <a href={a.href} aria-current={a.area === props.area ? "page" : undefined}>
                    {a.name}
                    {a.area === "review" ? <> <QueueCount queue={props.queue} /></> : null}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <form method="post" action="/signout" class="signout">
            <button type="submit" class="quiet">Sign out</button>
          </form>
        </header>
        <main id="main" tabindex={-1}>
          <h1>{props.title}</h1>
          {who.role === "viewer" ? <p class="notice" data-testid="viewer-notice">You are a viewer here: you can read everything, and change nothing.</p> : null}
          {props.children}
        </main>
        <div id="announce" class="vh" role="status" aria-live="polite"></div>
      </body>
    </html>
  );
}

/** A short page for a refusal: what was refused, in the service's words, inside the frame when the tenant is known. */
export function RefusalPage(props: { status: number; title: string; detail: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{props.title} · Ledger</title>
        <link rel="stylesheet" href="/app/assets/workspace.css" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to the content</a>
        <header class="top">
          <p class="brand">Ledger</p>
          <nav aria-label="Workspace">
            <ul>
              {AREAS.filter((a) => a.area !== "practice").map((a) => (
                <li><a href={a.href}>{a.name}</a></li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main" tabindex={-1}>
          <h1>{props.title}</h1>
          <p class="error" role="alert" data-testid="refusal">{props.detail}</p>
          <p>Status {props.status}.</p>
        </main>
      </body>
    </html>
  );
}
