/**
 * The records the server and the browser exchange (messages, cards, conversations, approvals) and
 * the schemas they are checked with.
 */
export * from "./approval-records";
export * from "./card-records";
export * from "./common-records";
export * from "./conversation-records";
export * from "./message-records";
export * from "./server-records";
