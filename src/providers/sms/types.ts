/** An SMS carrier: sends one text and answers the carrier's id for it. */
export interface SmsCarrier {
  send(message: { to: string; body: string }): Promise<{ sid: string }>;
}

export class SmsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SmsError";
  }
}

/** A phone number in E.164: `+`, then 7 to 15 digits, the first not 0. */
export const E164 = /^\+[1-9]\d{6,14}$/;
