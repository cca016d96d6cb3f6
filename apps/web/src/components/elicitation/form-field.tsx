import type { ElicitationField } from "@mcp-chat-host/protocol";
import { useId } from "react";
import type { FieldValue } from "./form-values";

/** Props of {@link FormField}. */
export interface FormFieldProps {
  field: ElicitationField;
  value: FieldValue;
  /** The sentence saying what is wrong with the value, once the person tried to submit. */
  problem: string | undefined;
  onChange: (value: FieldValue) => void;
}

/**
 * One field of a server's form: its label (the property's title, else its name, with a mark
 * when required), its description, the input its kind calls for (text, number, checkbox, a
 * select for one choice, checkboxes for several) and what is wrong with it.
 */
export function FormField(props: FormFieldProps) {
  const { field, value, problem, onChange } = props;
  const inputId = useId();
  const describedBy = [
    field.description === undefined ? null : `${inputId}-description`,
    problem === undefined ? null : `${inputId}-problem`,
  ]
    .filter((id) => id !== null)
    .join(" ");
  const common = {
    id: inputId,
    "aria-invalid": problem === undefined ? undefined : true,
    "aria-describedby": describedBy === "" ? undefined : describedBy,
    "aria-required": field.required ? true : undefined,
    "data-testid": `elicitation-input-${field.name}`,
  } as const;
  const label = (
    <>
      {field.label}
      {field.required ? (
        <span className="elicitation-required" title="required">
          {" "}
          *
        </span>
      ) : null}
    </>
  );
  const notes = (
    <>
      {field.description === undefined ? null : (
        <p className="elicitation-description" id={`${inputId}-description`}>
          {field.description}
        </p>
      )}
      {problem === undefined ? null : (
        <p
          className="inline-error"
          id={`${inputId}-problem`}
          data-testid={`elicitation-problem-${field.name}`}
        >
          {problem}
        </p>
      )}
    </>
  );

  if (field.kind === "boolean") {
    return (
      <div className="elicitation-field elicitation-checkbox">
        <input
          type="checkbox"
          {...common}
          checked={value === true}
          onChange={(event) => onChange(event.target.checked)}
        />
        <label htmlFor={inputId}>{label}</label>
        {notes}
      </div>
    );
  }
  if (field.kind === "choices") {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="elicitation-field" {...common}>
        <legend>{label}</legend>
        {field.choices.map((choice) => (
          <label key={choice.value} className="elicitation-choice">
            <input
              type="checkbox"
              checked={chosen.includes(choice.value)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...chosen, choice.value]
                    : chosen.filter((item) => item !== choice.value),
                )
              }
            />{" "}
            {choice.label}
          </label>
        ))}
        {notes}
      </fieldset>
    );
  }
  const text = typeof value === "string" ? value : "";
  return (
    <div className="elicitation-field">
      <label htmlFor={inputId}>{label}</label>
      {field.kind === "choice" ? (
        <select {...common} value={text} onChange={(event) => onChange(event.target.value)}>
          <option value="">Choose one</option>
          {field.choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={inputType(field)}
          value={text}
          {...inputBounds(field)}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {notes}
    </div>
  );
}

/** The bounds the browser's input shows (the check before sending enforces them). */
function inputBounds(field: ElicitationField) {
  if (field.kind === "number" || field.kind === "integer") {
    return { step: field.kind === "integer" ? 1 : "any", min: field.minimum, max: field.maximum };
  }
  return field.kind === "text" ? { maxLength: field.maxLength } : {};
}

function inputType(field: ElicitationField): string {
  if (field.kind === "number" || field.kind === "integer") return "number";
  if (field.kind !== "text") return "text";
  switch (field.format) {
    case "email":
      return "email";
    case "uri":
      return "url";
    case "date":
      return "date";
    case "date-time":
      return "text";
    default:
      return "text";
  }
}
