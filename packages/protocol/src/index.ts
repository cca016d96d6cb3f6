/**
 * The wire contract between the mcp-chat-host server and the browser: event names, payload
 * schemas, records, the {@link WireError} shape and the acknowledgement envelope. Both sides import
 * this package; it imports nothing of ours.
 */
export * from "./ack";
export * from "./elicitation-form";
export * from "./error-message";
export * from "./events";
export * from "./http-origin";
export * from "./limits";
export * from "./loopback-host";
export * from "./records";
export * from "./session-binding";
export * from "./wire-error";
