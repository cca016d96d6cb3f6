import { useId, useState } from "react";
import { useShallow } from "zustand/react/shallow";
import { useHostStore } from "../../state/host-store";
import { renamedTools, renamesKey } from "../../state/tools-slice";

/**
 * A small note at the top of a chat when some of its tools have other names for the model (a
 * name some provider refuses, or the same name on two sources): how many, and on request each
 * model name → the tool's own name (its source) and why. Shown once per chat: once dismissed it
 * stays hidden until other tools are renamed.
 */
export function ToolNamesNotice(props: { chatId: string }) {
  const { chatId } = props;
  const renamed = useHostStore(useShallow((state) => renamedTools(state.chatTools[chatId])));
  const dismissed = useHostStore((state) => state.dismissedRenames[chatId]);
  const dismiss = useHostStore((state) => state.dismissRenames);
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (renamed.length === 0 || dismissed === renamesKey(renamed)) return null;
  const summary =
    renamed.length === 1
      ? "1 tool has another name for the model"
      : `${renamed.length} tools have other names for the model`;
  return (
    <section
      className="tool-names-notice"
      data-testid="tool-names-notice"
      role="note"
      aria-label="Tool names for the model"
    >
      <div className="tool-names-notice-bar">
        <span className="tool-names-notice-summary">{summary}</span>
        <button
          type="button"
          className="button button-quiet button-small"
          data-testid="tool-names-notice-toggle"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((shown) => !shown)}
        >
          {open ? "Hide" : "Show"}
        </button>
        <button
          type="button"
          className="icon-button"
          data-testid="tool-names-notice-dismiss"
          aria-label="Dismiss the note about tool names"
          title="Dismiss"
          onClick={() => dismiss(chatId)}
        >
          ×
        </button>
      </div>
      <ul className="tool-names-notice-list" id={listId} hidden={!open}>
        {renamed.map((tool) => (
          <li key={tool.modelName} data-testid="tool-names-notice-item">
            <code>{tool.modelName}</code> <span aria-hidden="true">→</span>
            <span className="visually-hidden">stands for</span> <code>{tool.name}</code> (
            {tool.source}
            ): {tool.renamed}
          </li>
        ))}
      </ul>
    </section>
  );
}
