/**
 * The socket events of the wire contract, in both directions: the browser's events with their
 * payload schemas and acknowledgement values, and the server's events with their payloads.
 */
export * from "./client-event-values";
export * from "./client-events";
export * from "./inspection-records";
export * from "./reply-chunks";
export * from "./server-events";
