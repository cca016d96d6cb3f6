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
 * field), and Submit, Decline and Cancel. Submit acts only once the dialog armed.
 */
export function ElicitationForm(props: ElicitationFormProps) {
  const { fields, busy, consent, onAnswer } = props;
  const [values, setValues] = useState(() => initialValues(fields));
  const [problems, setProblems] = useState<ElicitationFieldProblem[]>([]);
  const submitDisabled = consent.armed ? undefined : true;

  const submit = () => {
    if (!consent.activate()) return;
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
        submit();
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
          type="submit"
          className="button button-primary"
          data-testid="elicitation-submit"
          disabled={busy}
          aria-disabled={submitDisabled}
        >
          Submit
        </button>
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
      </div>
    </form>
  );
}
