/**
 * The transactional mail service's REST API (Postmark's shape): `POST {base}/email` with
 * the server token in `X-Postmark-Server-Token` and a JSON body (From, To, Subject,
 * TextBody, MessageStream). It answers `{ MessageID, ErrorCode: 0, Message: "OK" }`, or an
 * error status whose body names `ErrorCode` and `Message`.
 */
import { endpoint, safeJson, withTimeout } from "../http";
import { MailError, type Mail, type MailService } from "./types";

export const MAIL_API_BASE_URL = "https://api.postmarkapp.com";
export const SERVER_TOKEN_HEADER = "x-postmark-server-token";

export interface MailConfig {
  /** Empty: the public API. */
  baseUrl: string;
  serverToken: string;
  /** The sender, e.g. `Ledger <no-reply@example.com>` (a sender signature the service has confirmed). */
  from: string;
  /** The service's stream for transactional mail. */
  messageStream?: string;
}

export class HttpMailService implements MailService {
  constructor(
    private readonly config: MailConfig,
    private readonly doFetch: typeof fetch = fetch,
    private readonly timeoutMs = 15_000,
  ) {}

  async send(mail: Mail): Promise<{ messageId: string }> {
    const url = endpoint(this.config.baseUrl || MAIL_API_BASE_URL, "email");
    let response: Response;
    try {
      response = await withTimeout(this.timeoutMs, (signal) =>
        this.doFetch(url, {
          method: "POST",
          headers: { [SERVER_TOKEN_HEADER]: this.config.serverToken, "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({
            From: this.config.from,
            To: mail.to,
            Subject: mail.subject,
            TextBody: mail.text,
            MessageStream: this.config.messageStream ?? "outbound",
          }),
          signal,
        }),
      );
    } catch (cause) {
      throw new MailError(`the mail service could not be reached: ${String(cause)}`);
    }
    const answer = safeJson(await response.text()) as { MessageID?: unknown; ErrorCode?: unknown; Message?: unknown } | undefined;
    if (!response.ok || (typeof answer?.ErrorCode === "number" && answer.ErrorCode !== 0)) {
      const code = typeof answer?.ErrorCode === "number" ? ` (error ${answer.ErrorCode})` : "";
      const words = typeof answer?.Message === "string" ? `: ${answer.Message.slice(0, 200)}` : "";
      throw new MailError(`the mail service answered HTTP ${response.status}${code}${words}`);
    }
    if (typeof answer?.MessageID !== "string" || answer.MessageID === "") throw new MailError("the mail service's answer carried no message id");
    return { messageId: answer.MessageID };
  }
}
