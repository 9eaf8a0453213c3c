/**
 * The workspace's small parts: money and dates as people read them, form fields whose
 * errors are tied to them, the error summary that links to each, notices and the pager.
 */
import type { Child } from "hono/jsx";
import type { z } from "zod";

/** Cents as dollars, signed from the business's side: "+$1,250.00" money in, "−$12.50" money out. */
export function money(cents: number, signed = true): string {
  const dollars = (Math.abs(cents) / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  if (!signed) return `${cents < 0 ? "\u2212" : ""}$${dollars}`;
  return `${cents < 0 ? "\u2212" : cents > 0 ? "+" : ""}$${dollars}`;
}

/** A 0..1 confidence as a whole percentage. */
export function percent(share: number): string {
  return `${Math.floor(share * 100)}%`;
}

/** An ISO timestamp as a person reads it, to the minute, in UTC. */
export function when(iso: string): string {
  return `${iso.slice(0, 16).replace("T", " ")} UTC`;
}

/** A form's refused fields: the field's name -> why. */
export type FieldErrors = Record<string, string>;

/** Every field a schema refused, each with its first message. */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** The form's fields as text, an empty field as absent (as a query string leaves it). */
export function filled(fields: Record<string, string | File | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) if (typeof value === "string" && value.trim() !== "") out[name] = value;
  return out;
}

/** At the top of a refused form: every problem, each a link to its field. Focused by the keyboard script when shown. */
export function ErrorSummary(props: { errors: FieldErrors; labels: Record<string, string>; ids?: Record<string, string> }) {
  const fields = Object.keys(props.errors);
  if (fields.length === 0) return null;
  return (
    <div class="error-summary" role="alert" tabindex={-1} data-focus-first aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">{fields.length === 1 ? "There is a problem" : `There are ${fields.length} problems`}</h2>
      <ul>
        {fields.map((field) => (
          <li>
            <a href={`#${props.ids?.[field] ?? field}`}>
              {props.labels[field] ?? field}: {props.errors[field]}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

interface FieldProps {
  id: string;
  name: string;
  label: string;
  errors?: FieldErrors;
  hint?: string;
}

/** The attributes that tie a control to its hint and its error. */
function described(props: FieldProps): Record<string, string | undefined> {
  const error = props.errors?.[props.name];
  const ids = [props.hint ? `${props.id}-hint` : null, error ? `${props.id}-error` : null].filter(Boolean).join(" ");
  return { "aria-describedby": ids || undefined, "aria-invalid": error ? "true" : undefined };
}

function FieldNotes(props: FieldProps) {
  const error = props.errors?.[props.name];
  return (
    <>
      {props.hint ? <span id={`${props.id}-hint`} class="hint">{props.hint}</span> : null}
      {error ? <span id={`${props.id}-error`} class="field-error">{error}</span> : null}
    </>
  );
}

export function TextField(props: FieldProps & { value?: string; type?: string; required?: boolean; inputmode?: "numeric" | "decimal" | "text"; maxlength?: number; placeholder?: string; autocomplete?: string }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <FieldNotes {...props} />
      <input
        id={props.id}
        name={props.name}
        type={props.type ?? "text"}
        value={props.value ?? ""}
        required={props.required}
        inputmode={props.inputmode}
        maxlength={props.maxlength}
        placeholder={props.placeholder}
        autocomplete={props.autocomplete ?? "off"}
        {...described(props)}
      />
    </div>
  );
}

export function SelectField(props: FieldProps & { value?: string; options: { value: string; label: string }[]; required?: boolean }) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <FieldNotes {...props} />
      <select id={props.id} name={props.name} required={props.required} {...described(props)}>
        {props.options.map((o) => (
          <option value={o.value} selected={o.value === (props.value ?? "")}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Notice(props: { children: Child; tone?: "ok" | "error" }) {
  return (
    <div class={props.tone === "error" ? "notice notice-error" : "notice"} role={props.tone === "error" ? "alert" : "status"} data-testid="notice">
      {props.children}
    </div>
  );
}

/** Previous and next pages of a list, and where this one is. */
export function Pager(props: { page: number; perPage: number; total: number; href: (page: number) => string; label: string }) {
  const pages = Math.max(1, Math.ceil(props.total / props.perPage));
  if (pages <= 1) return null;
  return (
    <nav class="pager" aria-label={props.label}>
      {props.page > 1 ? <a href={props.href(props.page - 1)} rel="prev">Previous page</a> : null}
      <span>
        Page {props.page.toLocaleString("en-US")} of {pages.toLocaleString("en-US")}
      </span>
      {props.page < pages ? <a href={props.href(props.page + 1)} rel="next">Next page</a> : null}
    </nav>
  );
}

/** A query string from the values that are set, in the order given. */
export function query(values: Record<string, string | number | undefined | null>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== null && value !== "") params.set(name, String(value));
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

/** A line's address in the workspace. */
export function lineHref(side: "A" | "B", srcId: number, fragment = ""): string {
  return `/app/transactions/${side}/${srcId}${fragment}`;
}
