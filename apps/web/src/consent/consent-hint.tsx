/**
 * A line in a consent question after a press was ignored because it began before the question
 * could be read (see `consent/consent-arming.ts`), so the person knows why nothing happened.
 *
 * @returns the line, or null while no press was ignored.
 */
export function ConsentHint(props: { refusedPress: boolean }) {
  if (!props.refusedPress) return null;
  return (
    <p className="consent-hint" role="status" data-testid="consent-hint">
      That press began before you could read this question, so it did nothing. Read it, then choose.
    </p>
  );
}
