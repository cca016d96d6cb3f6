// The values a person types into a server's form, and the answer's `content` they make: text as
// typed, numbers as numbers (a number that doesn't read as one is kept as typed, so the check says
// so), checkboxes as booleans, choices as their values. An empty optional field is left out.
import type { ElicitationField } from "@mcp-chat-host/protocol";

/** What one input holds: text (text, number and single-choice fields), a checkbox, or choices. */
export type FieldValue = string | boolean | string[];

/**
 * The inputs' first values: the server's defaults, else empty.
 *
 * @returns one value per field, by property name.
 */
export function initialValues(fields: readonly ElicitationField[]): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const field of fields) {
    switch (field.kind) {
      case "boolean":
        values[field.name] = field.default ?? false;
        break;
      case "choices":
        values[field.name] = field.default ?? [];
        break;
      case "number":
      case "integer":
        values[field.name] = field.default === undefined ? "" : String(field.default);
        break;
      default:
        values[field.name] = field.default ?? "";
    }
  }
  return values;
}

/**
 * The answer's `content` from the inputs' values.
 *
 * @returns the values by property name, empty optional fields left out.
 */
export function contentOf(
  fields: readonly ElicitationField[],
  values: Readonly<Record<string, FieldValue>>,
): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === "boolean") {
      content[field.name] = value === true;
    } else if (field.kind === "choices") {
      const chosen = Array.isArray(value) ? value : [];
      if (chosen.length > 0 || field.required) content[field.name] = chosen;
    } else if (typeof value === "string" && value !== "") {
      content[field.name] =
        field.kind === "number" || field.kind === "integer" ? numberOrText(value) : value;
    }
  }
  return content;
}

function numberOrText(value: string): number | string {
  const trimmed = value.trim();
  const number = Number(trimmed);
  return trimmed !== "" && Number.isFinite(number) ? number : value;
}
