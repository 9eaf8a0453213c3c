/** A transactional mail service: sends one plain-text mail and answers the service's id for it. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface MailService {
  send(mail: Mail): Promise<{ messageId: string }>;
}

export class MailError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MailError";
  }
}
