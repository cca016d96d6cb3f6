import { type ChatPrompt, limits } from "@mcp-chat-host/protocol";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { getPromptText } from "../../actions/composer-offers";
import { sendMessage, stopTurn } from "../../actions/send-message";
import { useSocket } from "../../socket/socket-context";
import { composerOf } from "../../state/composer-slice";
import { useHostStore } from "../../state/host-store";
import { AppMessageNotes } from "./app-message-notes";
import { AttachMenu } from "./attach-menu";
import { AttachmentChips } from "./attachment-chips";
import { composerKeyAction } from "./composer-keys";
import { PromptForm } from "./prompt-form";
import { PromptMenu, promptOptionId } from "./prompt-menu";
import { useSlashPrompts } from "./use-slash-prompts";

/**
 * A chat's input box: Enter sends, Shift+Enter adds a line, Send is disabled while the box is
 * empty, and Stop replaces it while a reply streams. A failed send keeps the text and says why.
 * Text an app wrote (compose mode) is named above the box; it never replaces what the person
 * typed and never takes the focus (`state/composer-slice.ts`, `offerAppMessage`).
 *
 * A `/` at the start offers the chat's prompts (arrows move, Enter chooses, Escape closes); a
 * prompt with arguments asks for them in a small form, and its text fills the box, for the person
 * to send. Attach adds the chat's resources as chips above the box, sent with the message.
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
  const requestFocus = useHostStore((state) => state.requestComposerFocus);
  const slash = useSlashPrompts(socket, chatId, text);
  const [chosen, setChosen] = useState<ChatPrompt | null>(null);
  const [promptBusy, setPromptBusy] = useState(false);
  const [promptError, setPromptError] = useState<string | null>(null);
  const menuId = useId();
  const textArea = useRef<HTMLTextAreaElement>(null);
  const inputId = useId();
  const errorId = useId();
  const tooLong = text.length > limits.maxMessageChars;
  // While a prompt's form is open the box holds the slash command, not the message to send.
  const canSend = text.trim() !== "" && !sending && !tooLong && chosen === null;

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
  const fillFromPrompt = async (prompt: ChatPrompt, args: Record<string, string>) => {
    setPromptBusy(true);
    setPromptError(null);
    const ack = await getPromptText(socket, chatId, prompt, args);
    setPromptBusy(false);
    if (!ack.ok) {
      setChosen(prompt);
      setPromptError(`The prompt could not be used: ${ack.error.message}`);
      return;
    }
    setChosen(null);
    setText(chatId, ack.value.text);
    requestFocus(chatId);
  };
  const choose = (prompt: ChatPrompt) => {
    slash.dismiss();
    setPromptError(null);
    if (prompt.arguments.length === 0) void fillFromPrompt(prompt, {});
    else setChosen(prompt);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.open && slash.matches.length > 0 && !event.nativeEvent.isComposing) {
      const step = event.key === "ArrowDown" ? 1 : event.key === "ArrowUp" ? -1 : 0;
      if (step !== 0) {
        event.preventDefault();
        slash.move(step);
        return;
      }
      const highlighted = slash.matches[slash.active];
      if (event.key === "Enter" && !event.shiftKey && highlighted !== undefined) {
        event.preventDefault();
        choose(highlighted);
        return;
      }
    }
    if (slash.open && event.key === "Escape") {
      event.preventDefault();
      slash.dismiss();
      return;
    }
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
      {chosen !== null ? (
        <PromptForm
          key={`${chosen.source}/${chosen.name}`}
          prompt={chosen}
          busy={promptBusy}
          error={promptError}
          onSubmit={(args) => void fillFromPrompt(chosen, args)}
          onCancel={() => {
            setChosen(null);
            setPromptError(null);
            requestFocus(chatId);
          }}
        />
      ) : null}
      {chosen === null && promptError !== null ? (
        <p className="composer-error" role="alert" data-testid="prompt-error">
          {promptError}
        </p>
      ) : null}
      {slash.open ? (
        <PromptMenu
          id={menuId}
          prompts={slash.matches}
          active={slash.active}
          error={slash.error}
          onChoose={choose}
        />
      ) : null}
      <AttachmentChips chatId={chatId} />
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
        role={slash.open ? "combobox" : undefined}
        aria-expanded={slash.open ? true : undefined}
        aria-controls={slash.open ? menuId : undefined}
        aria-activedescendant={
          slash.open && slash.matches.length > 0 ? promptOptionId(menuId, slash.active) : undefined
        }
        aria-invalid={error !== null || tooLong}
        aria-describedby={error !== null || tooLong ? errorId : undefined}
      />
      <div className="composer-actions">
        <AttachMenu chatId={chatId} />
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
