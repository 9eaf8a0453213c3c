import { settle } from "../../errors";
import { defineEndpoint } from "../define";
import { MESSAGES_CAP, messagesQuery, messagesResponse } from "./schema";

export const getMessages = defineEndpoint({
  operationId: "get_messages",
  method: "get",
  path: "/api/v1/messages",
  tag: "messages",
  summary: "Read the message thread",
  description:
    "The SMS thread with the customer, newest first: texts it sent in, replies a person released on /settings (drafts " +
    "are never listed), and the service's notices to the owner (a parity mismatch: texted too where SMS is configured, " +
    "else channel `notice`, status `posted`). `limit` defaults to 50; above 200 is clamped to 200. `count` is the number of rows in " +
    "this response, not a lifetime total.",
  credential: "read",
  query: messagesQuery,
  success: { status: 200, description: "The messages.", schema: messagesResponse },
  async handler({ ledger, query }) {
    const messages = settle(await ledger.messages(Math.min(query.limit, MESSAGES_CAP)));
    return { messages, count: messages.length };
  },
});
