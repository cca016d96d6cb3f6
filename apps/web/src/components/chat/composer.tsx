import { limits } from "@mcp-chat-host/protocol";
import { type KeyboardEvent, useEffect, useId, useRef } from "react";
import { sendMessage, stopTurn } from "../../actions/send-message";
import { useSocket } from "../../socket/socket-context";
import { composerOf } from "../../state/composer-slice";
import { useHostStore } from "../../state/host-store";
import { AppMessageNotes } from "./app-message-notes";
import { composerKeyAction } from "./composer-keys";

/**
 * A chat's input box: Enter sends, Shift+Enter adds a line, Send is disabled while the box is
 * empty, and Stop replaces it while a reply streams. A failed send keeps the text and says why.
 * Text an app wrote (compose mode) is named above the box; it never replaces what the person
 * typed and never takes the focus (`state/composer-slice.ts`, `offerAppMessage`).
 */
export function Composer(props: { chatId: string; chatTitle: string; running: boolean }) {
  const { chatId, running } = props;
  const socket = useSocket();
  const text = useHostStore((state) => composerOf(state, chatId).text);
  const sending = useHostStore((state) => composerOf(state, chatId).sending);
  const error = useHostStore((state) => composerOf(state, chatId).error);
  const focusRequest = useHostStore((state) => composerOf(state, chatId).focusRequest);
  const setText = useHostStore((state) => state.setComposerText);
  const setFocused = useHostStore((state) => state.setComposerFocused);
  const textArea = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const errorId = useId();
  const tooLong = text.length > limits.maxMessageChars;
  const canSend = text.trim() !== "" && !sending && !tooLong;

  useEffect(() => {
    if (focusRequest === 0) return;
    const element = textArea.current;
    if (element === null) return;
    element.focus();
    element.setSelectionRange(element.value.length, element.value.length);
  }, [focusRequest]);

  const send = () => {
    if (canSend) void sendMessage(socket, chatId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (
      composerKeyAction({
        key: event.key,
        shiftKey: event.shiftKey,
        isComposing: event.nativeEvent.isComposing,
      }) !== "send"
    ) {
      return;
    }
    event.preventDefault();
    send();
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <AppMessageNotes chatId={chatId} />
      <label htmlFor={inputId} className="visually-hidden">
        Message {props.chatTitle}
      </label>
      <textarea
        id={inputId}
        ref={textArea}
        data-testid="composer-input"
        className="composer-input"
        rows={1}
        placeholder="Message… (Enter sends, Shift+Enter adds a line)"
        value={text}
        onChange={(event) => setText(chatId, event.target.value)}
        onKeyDown={onKeyDown}
        onFocus={() => setFocused(chatId, true)}
        onBlur={() => setFocused(chatId, false)}
        aria-invalid={error !== null || tooLong}
        aria-describedby={error !== null || tooLong ? errorId : undefined}
      />
      <div className="composer-actions">
        {running ? (
          <button
            type="button"
            className="button button-secondary"
            data-testid="stop-button"
            onClick={() => void stopTurn(socket, chatId)}
          >
            Stop
          </button>
        ) : null}
        <button
          type="submit"
          className="button button-primary"
          data-testid="send-button"
          disabled={!canSend}
        >
          {sending ? "Sending…" : "Send"}
        </button>
      </div>
      {error !== null || tooLong ? (
        <p id={errorId} className="composer-error" role="alert" data-testid="composer-error">
          {tooLong
            ? `The message is ${text.length} characters long; the most is ${limits.maxMessageChars}. Shorten it to send it.`
            : error}
        </p>
      ) : null}
    </form>
  );
}
