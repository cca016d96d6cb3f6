import type { ChatPrompt } from "@mcp-chat-host/protocol";
import { useId, useState } from "react";

/**
 * The small form of a prompt's arguments: one field per argument, the required ones marked and
 * required. Filling it asks the server for the prompt's text (the composer's box takes it). It is
 * a group, not a `<form>`, because it sits inside the composer's form: Enter in a field submits
 * it, Escape cancels it.
 */
export function PromptForm(props: {
  prompt: ChatPrompt;
  busy: boolean;
  error: string | null;
  onSubmit: (args: Record<string, string>) => void;
  onCancel: () => void;
}) {
  const { prompt } = props;
  const [values, setValues] = useState<Record<string, string>>({});
  const formId = useId();
  const missing = prompt.arguments.filter(
    (argument) => argument.required === true && (values[argument.name] ?? "").trim() === "",
  );
  const submit = () => {
    if (missing.length > 0 || props.busy) return;
    const filled: Record<string, string> = {};
    for (const [name, value] of Object.entries(values)) {
      if (value.trim() !== "") filled[name] = value;
    }
    props.onSubmit(filled);
  };
  return (
    <fieldset
      className="prompt-form"
      data-testid="prompt-form"
      aria-label={`Arguments of ${prompt.title ?? prompt.name}`}
      onKeyDown={(event) => {
        if (event.key === "Escape") {
          event.preventDefault();
          props.onCancel();
        } else if (event.key === "Enter" && event.target instanceof HTMLInputElement) {
          event.preventDefault();
          submit();
        }
      }}
    >
      <legend className="prompt-form-title">
        /{prompt.name} <span className="prompt-option-source">({prompt.source})</span>
      </legend>
      {prompt.arguments.map((argument, index) => {
        const id = `${formId}-${index}`;
        return (
          <div key={argument.name} className="prompt-form-field">
            <label htmlFor={id}>
              {argument.name}
              {argument.required === true ? (
                <span className="prompt-form-required"> (required)</span>
              ) : null}
            </label>
            <input
              id={id}
              data-testid={`prompt-argument-${argument.name}`}
              required={argument.required === true}
              autoFocus={index === 0}
              value={values[argument.name] ?? ""}
              onChange={(event) => setValues({ ...values, [argument.name]: event.target.value })}
            />
            {argument.description !== undefined ? (
              <span className="prompt-form-hint">{argument.description}</span>
            ) : null}
          </div>
        );
      })}
      {props.error !== null ? (
        <p className="composer-error" role="alert" data-testid="prompt-form-error">
          {props.error}
        </p>
      ) : null}
      <div className="prompt-form-actions">
        <button type="button" className="button button-secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="button"
          className="button button-primary"
          data-testid="prompt-form-submit"
          disabled={props.busy || missing.length > 0}
          onClick={submit}
        >
          {props.busy ? "Getting…" : "Use prompt"}
        </button>
      </div>
    </fieldset>
  );
}
