import type { ConsentRefusal } from "./consent-arming";

const explanations: Record<ConsentRefusal, string> = {
  early:
    "That press began before you could read this question (or a key was held down), so it did nothing. Read it, then choose.",
  "not-chosen":
    "That key did nothing: a key answers yes only on a button you moved to yourself. Press Tab until the button is selected, then press Enter, or click it.",
};

/**
 * A line in a consent question after a press was ignored (see `consent/consent-arming.ts`), so
 * the person knows why nothing happened and what to do instead.
 *
 * @returns the line, or null while no press was ignored.
 */
export function ConsentHint(props: { refusal: ConsentRefusal | null }) {
  if (props.refusal === null) return null;
  return (
    <p
      className="consent-hint"
      role="status"
      data-testid="consent-hint"
      data-refusal={props.refusal}
    >
      {explanations[props.refusal]}
    </p>
  );
}
