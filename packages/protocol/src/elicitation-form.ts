// A server's question as a form (MCP's restricted JSON Schema for `elicitation/create`): a flat
// object of string, number, integer, boolean and enum properties. Read once here, so the dialog
// that renders it and the host that checks the answer agree on the fields and say the same
// sentences about a wrong value.
import { z } from "zod";

/** One choice of an enum field: the value sent and the label shown. */
export interface ElicitationChoice {
  value: string;
  label: string;
}

/** One field of a server's form, as the dialog renders it and the host checks it. */
export type ElicitationField = {
  /** The property name (the key of the answer's `content`). */
  name: string;
  /** The label: the property's `title`, else its name. */
  label: string;
  description?: string;
  required: boolean;
} & (
  | {
      kind: "text";
      minLength?: number;
      maxLength?: number;
      format?: "email" | "uri" | "date" | "date-time";
      default?: string;
    }
  | { kind: "number" | "integer"; minimum?: number; maximum?: number; default?: number }
  | { kind: "boolean"; default?: boolean }
  | { kind: "choice"; choices: ElicitationChoice[]; default?: string }
  | {
      kind: "choices";
      choices: ElicitationChoice[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    }
);

/** A value of the answer that is wrong, with the sentence that says so. */
export interface ElicitationFieldProblem {
  /** The property name. */
  field: string;
  /** One sentence for the person, naming the field by its label. */
  message: string;
}

const common = { title: z.string().optional(), description: z.string().optional() };
const titledChoices = z.array(z.object({ const: z.string(), title: z.string() }));
const propertySchema = z.union([
  z.object({
    ...common,
    type: z.literal("string"),
    enum: z.array(z.string()).min(1),
    enumNames: z.array(z.string()).optional(),
    default: z.string().optional(),
  }),
  z.object({
    ...common,
    type: z.literal("string"),
    oneOf: titledChoices.min(1),
    default: z.string().optional(),
  }),
  z.object({
    ...common,
    type: z.literal("string"),
    minLength: z.number().int().nonnegative().optional(),
    maxLength: z.number().int().nonnegative().optional(),
    format: z.enum(["email", "uri", "date", "date-time"]).optional(),
    default: z.string().optional(),
  }),
  z.object({
    ...common,
    type: z.enum(["number", "integer"]),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    default: z.number().optional(),
  }),
  z.object({ ...common, type: z.literal("boolean"), default: z.boolean().optional() }),
  z.object({
    ...common,
    type: z.literal("array"),
    items: z.union([
      z.object({ type: z.literal("string"), enum: z.array(z.string()).min(1) }),
      z.object({ anyOf: titledChoices.min(1) }),
    ]),
    minItems: z.number().int().nonnegative().optional(),
    maxItems: z.number().int().nonnegative().optional(),
    default: z.array(z.string()).optional(),
  }),
]);
const formSchema = z.object({
  type: z.literal("object"),
  properties: z.record(z.string(), propertySchema),
  required: z.array(z.string()).optional(),
});

type Property = z.infer<typeof propertySchema>;

/**
 * Reads a server's `requestedSchema` into the fields of its form, in the server's order.
 *
 * @returns the fields, or `null` when the schema is not MCP's restricted form schema.
 */
export function elicitationFields(requestedSchema: unknown): ElicitationField[] | null {
  const parsed = formSchema.safeParse(requestedSchema);
  if (!parsed.success) return null;
  const required = new Set(parsed.data.required ?? []);
  return Object.entries(parsed.data.properties).map(([name, property]) =>
    fieldOf(name, property, required.has(name)),
  );
}

function fieldOf(name: string, property: Property, required: boolean): ElicitationField {
  const base = {
    name,
    label: property.title !== undefined && property.title.trim() !== "" ? property.title : name,
    ...(property.description === undefined ? {} : { description: property.description }),
    required,
  };
  if (property.type === "boolean") return { ...base, kind: "boolean", ...defaultOf(property) };
  if (property.type !== "string" && property.type !== "array") {
    const { minimum, maximum } = property;
    return {
      ...base,
      kind: property.type,
      ...(minimum === undefined ? {} : { minimum }),
      ...(maximum === undefined ? {} : { maximum }),
      ...defaultOf(property),
    };
  }
  if (property.type === "array") {
    const { items, minItems, maxItems } = property;
    const choices =
      "anyOf" in items
        ? items.anyOf.map((choice) => ({ value: choice.const, label: choice.title }))
        : items.enum.map((value) => ({ value, label: value }));
    return {
      ...base,
      kind: "choices",
      choices,
      ...(minItems === undefined ? {} : { minItems }),
      ...(maxItems === undefined ? {} : { maxItems }),
      ...defaultOf(property),
    };
  }
  if ("enum" in property) {
    const names = property.enumNames;
    const choices = property.enum.map((value, index) => ({
      value,
      label: names?.[index] ?? value,
    }));
    return { ...base, kind: "choice", choices, ...defaultOf(property) };
  }
  if ("oneOf" in property) {
    const choices = property.oneOf.map((choice) => ({ value: choice.const, label: choice.title }));
    return { ...base, kind: "choice", choices, ...defaultOf(property) };
  }
  const { minLength, maxLength, format } = property;
  return {
    ...base,
    kind: "text",
    ...(minLength === undefined ? {} : { minLength }),
    ...(maxLength === undefined ? {} : { maxLength }),
    ...(format === undefined ? {} : { format }),
    ...defaultOf(property),
  };
}

function defaultOf<T>(property: { default?: T | undefined }): { default?: T } {
  return property.default === undefined ? {} : { default: property.default };
}

const formatChecks = {
  email: {
    test: (value: string) => z.email().safeParse(value).success,
    sentence: "an email address, like name@example.com",
  },
  uri: {
    test: (value: string) => URL.canParse(value),
    sentence: "a web address, like https://example.com",
  },
  date: {
    test: (value: string) => z.iso.date().safeParse(value).success,
    sentence: "a date, like 2026-12-01",
  },
  "date-time": {
    test: (value: string) => z.iso.datetime({ offset: true }).safeParse(value).success,
    sentence: "a date and time, like 2026-12-01T09:30:00Z",
  },
} as const;

/**
 * Checks an answer against the fields of the form it answers. A field left out is fine unless
 * it is required; a property the form does not have is a problem.
 *
 * @returns one problem per wrong field, in the form's order (none: the answer may be sent).
 */
export function checkElicitationAnswer(
  fields: readonly ElicitationField[],
  content: Readonly<Record<string, unknown>>,
): ElicitationFieldProblem[] {
  const problems: ElicitationFieldProblem[] = [];
  for (const field of fields) {
    const value = content[field.name];
    const message =
      value === undefined
        ? field.required
          ? `Fill in "${field.label}"; it is required.`
          : null
        : valueProblem(field, value);
    if (message !== null) problems.push({ field: field.name, message });
  }
  const known = new Set(fields.map((field) => field.name));
  for (const name of Object.keys(content)) {
    if (!known.has(name)) {
      problems.push({ field: name, message: `"${name}" is not a field of this form.` });
    }
  }
  return problems;
}

function valueProblem(field: ElicitationField, value: unknown): string | null {
  const label = `"${field.label}"`;
  switch (field.kind) {
    case "text": {
      if (typeof value !== "string") return `${label} must be text.`;
      if (field.minLength !== undefined && value.length < field.minLength) {
        return `${label} needs at least ${field.minLength} characters.`;
      }
      if (field.maxLength !== undefined && value.length > field.maxLength) {
        return `${label} takes at most ${field.maxLength} characters.`;
      }
      const format = field.format === undefined ? undefined : formatChecks[field.format];
      if (format !== undefined && !format.test(value))
        return `${label} must be ${format.sentence}.`;
      return null;
    }
    case "number":
    case "integer": {
      if (typeof value !== "number" || !Number.isFinite(value)) return `${label} must be a number.`;
      if (field.kind === "integer" && !Number.isInteger(value)) {
        return `${label} must be a whole number.`;
      }
      if (field.minimum !== undefined && value < field.minimum) {
        return `${label} must be at least ${field.minimum}.`;
      }
      if (field.maximum !== undefined && value > field.maximum) {
        return `${label} must be at most ${field.maximum}.`;
      }
      return null;
    }
    case "boolean":
      return typeof value === "boolean" ? null : `${label} must be checked or not (true or false).`;
    case "choice":
      return typeof value === "string" && field.choices.some((choice) => choice.value === value)
        ? null
        : `${label} must be one of: ${field.choices.map((choice) => choice.label).join(", ")}.`;
    case "choices": {
      const allowed = new Set(field.choices.map((choice) => choice.value));
      if (
        !Array.isArray(value) ||
        !value.every((item) => typeof item === "string" && allowed.has(item))
      ) {
        return `${label} must be chosen from: ${field.choices.map((choice) => choice.label).join(", ")}.`;
      }
      if (field.minItems !== undefined && value.length < field.minItems) {
        return `Choose at least ${field.minItems} for ${label}.`;
      }
      if (field.maxItems !== undefined && value.length > field.maxItems) {
        return `Choose at most ${field.maxItems} for ${label}.`;
      }
      return null;
    }
  }
}
