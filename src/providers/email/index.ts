/**
 * Which mail service a deployment sends through: the sandbox outbox where the sandbox is
 * on, otherwise the mail API when its token and sender are set (EMAIL_API_TOKEN,
 * EMAIL_FROM). Neither: null, and what needs a mail (a sign-up, a reset) says so.
 */
import { sandboxOn, type Env } from "../../env";
import { HttpMailService } from "./postmark";
import { SandboxMailService } from "./sandbox";
import type { MailService } from "./types";

export function mailServiceFor(env: Env, doFetch?: typeof fetch): MailService | null {
  if (sandboxOn(env)) return new SandboxMailService(env.INDEX_DB);
  if (!env.EMAIL_API_TOKEN || !env.EMAIL_FROM) return null;
  return new HttpMailService({ baseUrl: env.EMAIL_API_BASE_URL, serverToken: env.EMAIL_API_TOKEN, from: env.EMAIL_FROM }, doFetch);
}
