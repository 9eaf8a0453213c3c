/** The mail adapter against a fake of the transactional mail API (test/fixtures/fake-mail.ts). */
import { describe, expect, it } from "vitest";
import { FakeMail, MAIL_FROM } from "../../../test/fixtures/fake-mail";
import { HttpMailService } from "./postmark";
import { MailError } from "./types";

const MAIL = { to: "owner@bakery.test", subject: "Verify your email", text: "Follow https://ledger.test/verify-email?token=abc" };

describe("the mail adapter", () => {
  it("posts the mail as JSON with the server token and answers the message id", async () => {
    const fake = new FakeMail();
    expect(await fake.service().send(MAIL)).toEqual({ messageId: "msg-1" });
    expect(fake.sent).toEqual([{ from: MAIL_FROM, to: MAIL.to, subject: MAIL.subject, text: MAIL.text, stream: "outbound" }]);
  });

  it("calls /email under a base address that has a path", async () => {
    const seen: string[] = [];
    const fake = new FakeMail();
    const service = new HttpMailService({ baseUrl: "https://mail.test/v1", serverToken: "server-token-4e1a", from: MAIL_FROM }, async (input, init) => {
      const request = new Request(input, init);
      seen.push(request.url);
      return fake.app.fetch(new Request(request.url.replace("/v1", ""), request));
    });
    await service.send(MAIL);
    expect(seen).toEqual(["https://mail.test/v1/email"]);
  });

  it("names the service's refusal: a wrong token, an invalid mail, an outage", async () => {
    const fake = new FakeMail();
    await expect(fake.service({ serverToken: "wrong" }).send(MAIL)).rejects.toThrow(new MailError(
      "the mail service answered HTTP 401 (error 10): The Server Token you provided in the X-Postmark-Server-Token request header was invalid.",
    ));
    await expect(fake.service({ from: "" }).send(MAIL)).rejects.toThrow(new MailError("the mail service answered HTTP 422 (error 300): Invalid email request: From"));
    fake.refuseWith = () => new Response("upstream down", { status: 503 });
    await expect(fake.service().send(MAIL)).rejects.toThrow(new MailError("the mail service answered HTTP 503"));
    expect(fake.sent).toEqual([]);
  });

  it("refuses an answer without a message id, a 200 carrying an error code, and an unreachable service", async () => {
    const answering = (body: unknown) => new HttpMailService({ baseUrl: "https://mail.test", serverToken: "t", from: MAIL_FROM }, async () => Response.json(body));
    await expect(answering({ ErrorCode: 0, Message: "OK" }).send(MAIL)).rejects.toThrow(/no message id/);
    await expect(answering({ ErrorCode: 406, Message: "You tried to send to recipient(s) that have been marked as inactive." }).send(MAIL)).rejects.toThrow(
      "the mail service answered HTTP 200 (error 406): You tried to send to recipient(s) that have been marked as inactive.",
    );
    const down = new HttpMailService({ baseUrl: "https://mail.test", serverToken: "t", from: MAIL_FROM }, async () => {
      throw new TypeError("Network connection lost.");
    });
    await expect(down.send(MAIL)).rejects.toThrow("the mail service could not be reached: TypeError: Network connection lost.");
  });

  it("gives up on a service that does not answer in time", async () => {
    const silent = new HttpMailService({ baseUrl: "https://mail.test", serverToken: "t", from: MAIL_FROM }, () => new Promise<Response>(() => undefined), 50);
    await expect(silent.send(MAIL)).rejects.toThrow("the mail service could not be reached: Error: no answer within 50 ms");
  });
});
