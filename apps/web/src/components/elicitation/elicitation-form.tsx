import {
  checkElicitationAnswer,
  type ElicitationField,
  type ElicitationFieldProblem,
} from "@mcp-chat-host/protocol";
import { useState } from "react";
import type { ConsentButtons } from "../../consent/use-consent-arming";
import { FormField } from "./form-field";
import { contentOf, initialValues, type FieldValue } from "./form-values";

/** Props of {@link ElicitationForm}. */
export interface ElicitationFormProps {
  fields: ElicitationField[];
  /** True while an answer is on its way. */
  busy: boolean;
  consent: ConsentButtons;
  onAnswer: (action: "accept" | "decline" | "cancel", content?: Record<string, unknown>) => void;
}

/**
 * A server's form: its fields, checked before anything is sent (a sentence under each wrong
 * field), and Decline, Cancel and Submit (the refusing buttons first in the tab order). Submit
 * acts only once the dialog armed, for a press on Submit itself.
 */
export function ElicitationForm(props: ElicitationFormProps) {
  const { fields, busy, consent, onAnswer } = props;
  const [values, setValues] = useState(() => initialValues(fields));
  const [problems, setProblems] = useState<ElicitationFieldProblem[]>([]);
  const submitDisabled = consent.armed ? undefined : true;

  // The submitter is the Submit button, also when Enter in a field submits the form: that press
  // went down in the field, not on the button, so it does not count (a view's "Tab, then Enter").
  const submit = (submitter: HTMLElement | null) => {
    if (submitter === null || !consent.activate(submitter)) return;
    const content = contentOf(fields, values);
    const found = checkElicitationAnswer(fields, content);
    setProblems(found);
    if (found.length === 0) onAnswer("accept", content);
  };
  const change = (name: string, value: FieldValue) =>
    setValues((current) => ({ ...current, [name]: value }));

  return (
    <form
      className="elicitation-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit(event.nativeEvent instanceof SubmitEvent ? event.nativeEvent.submitter : null);
      }}
    >
      {fields.map((field) => (
        <FormField
          key={field.name}
          field={field}
          value={values[field.name] ?? ""}
          problem={problems.find((problem) => problem.field === field.name)?.message}
          onChange={(value) => change(field.name, value)}
        />
      ))}
      <div className="elicitation-buttons">
        <button
          type="button"
          className="button"
          data-testid="elicitation-decline"
          disabled={busy}
          onClick={() => onAnswer("decline")}
        >
          Decline
        </button>
        <button
          type="button"
          className="button"
          data-testid="elicitation-cancel"
          disabled={busy}
          onClick={() => onAnswer("cancel")}
        >
          Cancel
        </button>
        <button
          type="submit"
          className="button button-primary"
          data-testid="elicitation-submit"
          disabled={busy}
          aria-disabled={submitDisabled}
        >
          Submit
        </button>
      </div>
    </form>
  );
}
