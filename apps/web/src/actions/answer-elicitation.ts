import type { ClientPayload } from "@mcp-chat-host/protocol";
import type { HostSocket } from "../socket/host-socket";
import { request } from "../socket/request";
import { useHostStore } from "../state/host-store";

/**
 * Answers a server's question (`elicitation:answer`). On success, or when the server no longer
 * knows the question (answered in another tab, withdrawn, timed out), it leaves the queue; a
 * refused form (the host's sentence says which fields are wrong) or any other failure stays on
 * screen with the question, so the person can answer again.
 *
 * @param socket - the page's socket.
 * @param answer - the question's id, the action and, for an accepted form, its values.
 * @returns true when the answer was taken.
 */
export async function answerElicitation(
  socket: HostSocket,
  answer: ClientPayload<"elicitation:answer">,
): Promise<boolean> {
  const questions = useHostStore.getState;
  if (questions().answeringElicitation !== null) return false;
  questions().setAnsweringElicitation(answer.elicitationId);
  questions().setElicitationError(null);
  const ack = await request(socket, "elicitation:answer", answer);
  questions().setAnsweringElicitation(null);
  if (ack.ok || ack.error.code === "not_found") {
    questions().settleElicitation(answer.elicitationId);
    return ack.ok;
  }
  questions().setElicitationError(
    ack.error.code === "bad_request"
      ? ack.error.message
      : `Your answer did not reach the server: ${ack.error.message}`,
  );
  return false;
}
