import type { HostSocket } from "../socket/host-socket";

/** What a card does with the server's events about it. */
export interface CardEventHandlers {
  /** The model wrote more of the opening call's arguments (`card:input-partial`). */
  inputPartial?: (args: Record<string, unknown>) => void;
  /** The opening call's arguments are final (`card:input`). */
  input?: (args: Record<string, unknown>) => void;
  /** The opening call returned (`card:result`). */
  result: (result: Record<string, unknown>) => void;
  /** The opening call failed or was stopped (`card:cancelled`). */
  cancelled: (reason: string) => void;
  /** The server closed the card (`card:closed`). */
  closed: (reason: string) => void;
  /** The server filled a chat's input box with the card's message (`composer:fill`). */
  composerFill: (chatId: string, text: string) => void;
}

/**
 * Listens to the server's events for one card; events naming another card are ignored.
 *
 * @param socket - the page's socket.
 * @param instanceId - the card's instance id.
 * @param handlers - what to do with each event.
 * @returns a function that stops listening.
 */
export function listenToCardEvents(
  socket: HostSocket,
  instanceId: string,
  handlers: CardEventHandlers,
): () => void {
  const onInputPartial = (event: { instanceId: string; arguments: Record<string, unknown> }) => {
    if (event.instanceId === instanceId) handlers.inputPartial?.(event.arguments);
  };
  const onInput = (event: { instanceId: string; arguments: Record<string, unknown> }) => {
    if (event.instanceId === instanceId) handlers.input?.(event.arguments);
  };
  const onResult = (event: { instanceId: string; result: Record<string, unknown> }) => {
    if (event.instanceId === instanceId) handlers.result(event.result);
  };
  const onCancelled = (event: { instanceId: string; reason: string }) => {
    if (event.instanceId === instanceId) handlers.cancelled(event.reason);
  };
  const onClosed = (event: { instanceId: string; reason: string }) => {
    if (event.instanceId === instanceId) handlers.closed(event.reason);
  };
  const onComposerFill = (event: { chatId: string; text: string; instanceId: string }) => {
    if (event.instanceId === instanceId) handlers.composerFill(event.chatId, event.text);
  };
  socket.on("card:input-partial", onInputPartial);
  socket.on("card:input", onInput);
  socket.on("card:result", onResult);
  socket.on("card:cancelled", onCancelled);
  socket.on("card:closed", onClosed);
  socket.on("composer:fill", onComposerFill);
  return () => {
    socket.off("card:input-partial", onInputPartial);
    socket.off("card:input", onInput);
    socket.off("card:result", onResult);
    socket.off("card:cancelled", onCancelled);
    socket.off("card:closed", onClosed);
    socket.off("composer:fill", onComposerFill);
  };
}
