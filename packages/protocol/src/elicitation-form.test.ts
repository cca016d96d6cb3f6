import { describe, expect, it } from "vitest";
import { checkElicitationAnswer, elicitationFields } from "./elicitation-form";

const schema = {
  type: "object",
  properties: {
    name: { type: "string", title: "Your name", minLength: 2, maxLength: 5 },
    email: { type: "string", format: "email", description: "Where we write." },
    site: { type: "string", format: "uri" },
    day: { type: "string", format: "date" },
    at: { type: "string", format: "date-time" },
    age: { type: "integer", minimum: 18, maximum: 99 },
    weight: { type: "number" },
    agree: { type: "boolean", title: "I agree", default: false },
    colour: { type: "string", enum: ["red", "green"], enumNames: ["Red", "Green"] },
    size: { type: "string", oneOf: [{ const: "s", title: "Small" }] },
    toppings: {
      type: "array",
      items: { type: "string", enum: ["ham", "egg"] },
      minItems: 1,
      maxItems: 1,
    },
  },
  required: ["name", "agree"],
};

describe("elicitationFields", () => {
  it("reads each property of the restricted schema as a field, in order", () => {
    const fields = elicitationFields(schema);
    expect(fields?.map((field) => [field.name, field.kind, field.label, field.required])).toEqual([
      ["name", "text", "Your name", true],
      ["email", "text", "email", false],
      ["site", "text", "site", false],
      ["day", "text", "day", false],
      ["at", "text", "at", false],
      ["age", "integer", "age", false],
      ["weight", "number", "weight", false],
      ["agree", "boolean", "I agree", true],
      ["colour", "choice", "colour", false],
      ["size", "choice", "size", false],
      ["toppings", "choices", "toppings", false],
    ]);
    expect(fields?.[1]).toMatchObject({ description: "Where we write.", format: "email" });
    expect(fields?.[8]).toMatchObject({
      choices: [
        { value: "red", label: "Red" },
        { value: "green", label: "Green" },
      ],
    });
    expect(fields?.[7]).toMatchObject({ default: false });
  });

  it("refuses a schema that is not a flat object of primitive properties", () => {
    expect(elicitationFields({ type: "object", properties: { a: { type: "object" } } })).toBeNull();
    expect(elicitationFields({ type: "array" })).toBeNull();
    expect(elicitationFields(undefined)).toBeNull();
  });
});

describe("checkElicitationAnswer", () => {
  const fields = elicitationFields(schema)!;
  const check = (content: Record<string, unknown>) =>
    checkElicitationAnswer(fields, { name: "Ada", agree: true, ...content }).map(
      (problem) => problem.message,
    );

  it("accepts a good answer, optional fields left out", () => {
    expect(check({})).toEqual([]);
    expect(
      check({
        email: "ada@example.com",
        site: "https://example.com",
        day: "2026-12-01",
        at: "2026-12-01T09:30:00Z",
        age: 30,
        weight: 60.5,
        colour: "red",
        size: "s",
        toppings: ["egg"],
      }),
    ).toEqual([]);
  });

  it("says which required field is missing", () => {
    expect(checkElicitationAnswer(fields, { agree: true }).map((p) => p.message)).toEqual([
      'Fill in "Your name"; it is required.',
    ]);
  });

  it("says one sentence per wrong field, naming it by its label", () => {
    expect(
      check({
        name: "A",
        email: "not-mail",
        site: "no site",
        day: "tomorrow",
        at: "noon",
        age: 17.5,
        weight: "heavy",
        agree: "yes",
        colour: "blue",
        size: "xl",
        toppings: ["cheese"],
        extra: 1,
      }),
    ).toEqual([
      '"Your name" needs at least 2 characters.',
      '"email" must be an email address, like name@example.com.',
      '"site" must be a web address, like https://example.com.',
      '"day" must be a date, like 2026-12-01.',
      '"at" must be a date and time, like 2026-12-01T09:30:00Z.',
      '"age" must be a whole number.',
      '"weight" must be a number.',
      '"I agree" must be checked or not (true or false).',
      '"colour" must be one of: Red, Green.',
      '"size" must be one of: Small.',
      '"toppings" must be chosen from: ham, egg.',
      '"extra" is not a field of this form.',
    ]);
  });

  it("says the bounds of lengths, numbers and choices", () => {
    expect(check({ name: "Adalbert" })).toEqual(['"Your name" takes at most 5 characters.']);
    expect(check({ age: 12 })).toEqual(['"age" must be at least 18.']);
    expect(check({ age: 120 })).toEqual(['"age" must be at most 99.']);
    expect(check({ name: 7 })).toEqual(['"Your name" must be text.']);
    expect(check({ toppings: [] })).toEqual(['Choose at least 1 for "toppings".']);
    expect(check({ toppings: ["ham", "egg"] })).toEqual(['Choose at most 1 for "toppings".']);
  });
});
