import { type ReactNode, useId, useRef } from "react";
import { HostDialog } from "../ui/host-dialog";
import type { ConsentArmingOptions } from "./consent-arming";
import { ConsentHint } from "./consent-hint";
import { useConsentArming } from "./use-consent-arming";

/** Props of {@link ConsentQuestion}. */
export interface ConsentQuestionProps {
  /** The dialog's test id. */
  testId: string;
  heading: ReactNode;
  /** What the question means, in a paragraph or two. */
  children: ReactNode;
  refuseLabel: string;
  allowLabel: string;
  refuseTestId: string;
  allowTestId: string;
  /** Called once with the person's answer (Escape answers no). */
  onAnswer(allowed: boolean): void;
  /** The arming clock and delay (tests). */
  arming?: ConsentArmingOptions | undefined;
}

/**
 * A yes/no question to the person about what an app may do, in the top layer above every card.
 * The focus starts on the dialog box and the first Tab stop is the no button (it comes first);
 * the yes button acts only for a press that began after the question could be read, and for a
 * key only once the person moved to it themselves (see `consent-arming.ts`); no, and Escape,
 * always act at once.
 *
 * @returns the dialog.
 */
export function ConsentQuestion(props: ConsentQuestionProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const consent = useConsentArming(dialog, props.arming);
  const headingId = useId();
  return (
    <HostDialog
      dialogRef={dialog}
      className="mch-card__dialog"
      role="alertdialog"
      labelledBy={headingId}
      testId={props.testId}
      onEscape={() => props.onAnswer(false)}
      attributes={{
        "data-armed": String(consent.armed),
        "data-key-armed": String(consent.keyArmed),
      }}
    >
      <h2 id={headingId} className="mch-card__dialog-title">
        {props.heading}
      </h2>
      {props.children}
      <ConsentHint refusal={consent.refusal} />
      <div className="mch-card__dialog-actions">
        <button
          type="button"
          className="mch-card__button"
          data-testid={props.refuseTestId}
          onClick={() => props.onAnswer(false)}
        >
          {props.refuseLabel}
        </button>
        <button
          type="button"
          className="mch-card__button mch-card__button--primary"
          data-testid={props.allowTestId}
          aria-disabled={consent.armed ? undefined : true}
          onClick={(event) => {
            if (consent.activate(event.currentTarget)) props.onAnswer(true);
          }}
        >
          {props.allowLabel}
        </button>
      </div>
    </HostDialog>
  );
}
