import type { ChatMessage } from "@mcp-chat-host/protocol";

/**
 * What happened to a reply that did not complete, and what to do next: failed (with the server's
 * plain reason), interrupted by a server stop, or stopped by the person. When the page offers
 * Retry beside it, the note does not ask for the message to be sent again.
 */
export function MessageStatusNote(props: { message: ChatMessage; retryOffered?: boolean }) {
  const { status, error } = props.message;
  const retryOffered = props.retryOffered === true;
  if (status === "error") {
    return (
      <p className="message-note message-note-error" role="alert" data-testid="message-error">
        This reply failed{error !== undefined && error !== "" ? `: ${error}` : "."}
        {retryOffered
          ? null
          : " Send your message again; if it keeps failing, check the server's log."}
      </p>
    );
  }
  if (status === "interrupted") {
    return (
      <p className="message-note message-note-warning" data-testid="message-interrupted">
        This reply was interrupted because the server stopped while writing it.
        {retryOffered ? null : " Send your message again to get a full reply."}
      </p>
    );
  }
  if (status === "stopped") {
    return (
      <p className="message-note" data-testid="message-stopped">
        You stopped this reply.
      </p>
    );
  }
  return null;
}
