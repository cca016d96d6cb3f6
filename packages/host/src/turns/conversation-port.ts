import type { ConversationRecord } from "../store/host-store";

/** What a turn needs of the session's conversations (implemented by the conversation service). */
export interface ConversationPort {
  /** The conversation shown, or null until the first message creates one. */
  shown(): ConversationRecord | null;
  /** The shown conversation, created (titled from `titleHint`) when there is none. */
  current(titleHint: string): Promise<ConversationRecord>;
  /** Titles a "New conversation" after its first message. */
  titleFromFirstMessage(record: ConversationRecord, text: string): Promise<void>;
}
