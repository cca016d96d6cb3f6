import { composerOf } from "../../state/composer-slice";
import { useHostStore } from "../../state/host-store";

/** Most characters of a suggestion shown before it is put in the box (all of it goes there). */
const previewChars = 400;

function preview(text: string): string {
  return text.length > previewChars ? `${text.slice(0, previewChars)}…` : text;
}

/**
 * Above a chat's box: which app wrote the text in it (until it is sent or cleared), and an app's
 * message waiting for the person, with buttons to put it in the box or dismiss it. Both sit
 * before the box in the tab order, so no Tab from the box reaches them by surprise.
 *
 * @returns the notes, or null when no app wrote anything.
 */
export function AppMessageNotes(props: { chatId: string }) {
  const { chatId } = props;
  const author = useHostStore((state) => composerOf(state, chatId).author);
  const suggestion = useHostStore((state) => composerOf(state, chatId).suggestion);
  const accept = useHostStore((state) => state.acceptSuggestion);
  const dismiss = useHostStore((state) => state.dismissSuggestion);
  const clear = useHostStore((state) => state.clearAppText);
  if (author === null && suggestion === null) return null;
  return (
    <div className="app-message-notes">
      {suggestion !== null ? (
        <div
          className="app-message-note app-message-suggestion"
          data-testid="composer-suggestion"
          role="status"
        >
          <span>
            From{" "}
            <strong data-testid="composer-suggestion-app">
              {suggestion.title} ({suggestion.source})
            </strong>
            , a message it wrote for you:{" "}
            <q className="app-message-preview">{preview(suggestion.text)}</q>
          </span>
          <span className="app-message-actions">
            <button
              type="button"
              className="button button-quiet"
              data-testid="composer-suggestion-use"
              onClick={() => accept(chatId)}
            >
              Put it in the box
            </button>
            <button
              type="button"
              className="button button-quiet"
              data-testid="composer-suggestion-dismiss"
              onClick={() => dismiss(chatId)}
            >
              Dismiss
            </button>
          </span>
        </div>
      ) : null}
      {author !== null ? (
        <div className="app-message-note" data-testid="composer-author" role="status">
          <span>
            From{" "}
            <strong data-testid="composer-author-app">
              {author.title} ({author.source})
            </strong>
            : this app wrote the message in the box. Read it before you send it; it goes as yours.
          </span>
          <button
            type="button"
            className="button button-quiet"
            data-testid="composer-author-clear"
            onClick={() => clear(chatId)}
          >
            Clear
          </button>
        </div>
      ) : null}
    </div>
  );
}
