import type { ChatPrompt } from "@mcp-chat-host/protocol";

/** The id of a prompt's option in the menu, for `aria-activedescendant`. */
export function promptOptionId(menuId: string, index: number): string {
  return `${menuId}-${index}`;
}

/**
 * The composer's slash menu: the chat's prompts that match what follows the `/`, the
 * highlighted one marked; a click chooses one. The keys (arrows, Enter, Escape) stay in the box.
 */
export function PromptMenu(props: {
  id: string;
  prompts: readonly ChatPrompt[];
  active: number;
  error: string | null;
  onChoose: (prompt: ChatPrompt) => void;
}) {
  if (props.error !== null && props.prompts.length === 0) {
    return (
      <p className="prompt-menu-error" role="alert" data-testid="prompt-menu-error">
        {props.error}
      </p>
    );
  }
  return (
    <ul
      id={props.id}
      className="prompt-menu"
      role="listbox"
      aria-label="Prompts"
      data-testid="prompt-menu"
    >
      {props.prompts.map((prompt, index) => (
        <li
          key={`${prompt.source}/${prompt.name}`}
          id={promptOptionId(props.id, index)}
          role="option"
          aria-selected={index === props.active}
          className={
            index === props.active ? "prompt-option prompt-option-active" : "prompt-option"
          }
          data-testid="prompt-option"
          // Chosen on mouse down: a click would first take the focus from the box.
          onMouseDown={(event) => {
            event.preventDefault();
            props.onChoose(prompt);
          }}
        >
          <span className="prompt-option-name">/{prompt.name}</span>
          {prompt.title !== undefined ? (
            <span className="prompt-option-title"> {prompt.title}</span>
          ) : null}
          <span className="prompt-option-source"> ({prompt.source})</span>
          {prompt.description !== undefined ? (
            <span className="prompt-option-description">{prompt.description}</span>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
