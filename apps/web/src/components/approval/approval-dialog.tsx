import type { ApprovalDecision, ApprovalRequest } from "@mcp-chat-host/protocol";
import { limits } from "@mcp-chat-host/protocol";
import { useCallback, useId, useRef, useState } from "react";
import { answerApproval } from "../../actions/answer-approval";
import type { ConsentArmingOptions } from "../../consent/consent-arming";
import { useConsentArming } from "../../consent/use-consent-arming";
import { useSocket } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";
import { prettyJson } from "../../ui/format";
import { HostDialog } from "../../ui/host-dialog";
import { AnnotationBadges } from "./annotation-badges";
import { ConsentHint } from "../../consent/consent-hint";

function ApprovalPanel(props: {
  request: ApprovalRequest;
  position: number;
  total: number;
  arming: ConsentArmingOptions | undefined;
}) {
  const { request, position, total } = props;
  const socket = useSocket();
  const answering = useHostStore((state) => state.answeringApproval !== null);
  const error = useHostStore((state) => state.approvalError);
  const [reason, setReason] = useState("");
  const dialog = useRef<HTMLDivElement>(null);
  const consent = useConsentArming(dialog, props.arming);
  const titleId = useId();
  const reasonId = useId();

  const answer = useCallback(
    (decision: ApprovalDecision) => {
      void answerApproval(socket, request.approvalId, decision, reason);
    },
    [socket, request.approvalId, reason],
  );
  const refuse = useCallback(() => answer("refuse"), [answer]);
  // Refusing is always safe; allowing needs a press that began after the dialog armed.
  const allow = (button: HTMLElement, decision: ApprovalDecision) => {
    if (consent.activate(button)) answer(decision);
  };
  const allowDisabled = consent.armed ? undefined : true;

  return (
    <HostDialog
      dialogRef={dialog}
      className="modal approval-dialog"
      role="alertdialog"
      labelledBy={titleId}
      testId="approval-dialog"
      onEscape={refuse}
      attributes={{
        "data-approval-id": request.approvalId,
        "data-armed": String(consent.armed),
        "data-key-armed": String(consent.keyArmed),
      }}
    >
      <header className="modal-header">
        <h2 id={titleId}>
          Allow <code>{request.tool}</code>?
        </h2>
        {total > 1 ? (
          <span className="approval-counter" data-testid="approval-counter">
            {position} of {total}
          </span>
        ) : null}
      </header>
      <p className="approval-origin">
        The card <strong data-testid="approval-card-title">{request.title}</strong> from{" "}
        <strong data-testid="approval-source">{request.source}</strong> wants to call the tool{" "}
        <strong data-testid="approval-tool">{request.tool}</strong>.
      </p>
      {request.question !== undefined ? (
        <p className="approval-question" data-testid="approval-question">
          {request.question}
        </p>
      ) : null}
      <AnnotationBadges annotations={request.annotations} />
      <h3 className="approval-subtitle">Arguments</h3>
      <pre className="json approval-arguments" data-testid="approval-arguments">
        {prettyJson(request.arguments)}
      </pre>
      {error !== null ? (
        <p className="inline-error" role="alert" data-testid="approval-error">
          {error}
        </p>
      ) : null}
      <ConsentHint refusal={consent.refusal} />
      {/* Refuse comes first in the tab order: the first Tab from the dialog, or a Tab then Enter a
          view told the person to press, lands on no. */}
      <div className="approval-refuse">
        <button
          type="button"
          className="button button-danger"
          data-testid="approval-refuse"
          disabled={answering}
          onClick={refuse}
        >
          Refuse
        </button>
        <label htmlFor={reasonId}>Reason for refusing (optional, the app sees it)</label>
        <input
          id={reasonId}
          type="text"
          data-testid="approval-reason"
          maxLength={limits.maxReasonChars}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              refuse();
            }
          }}
        />
      </div>
      <div className="approval-allow">
        <button
          type="button"
          className="button button-primary"
          data-testid="approval-allow-once"
          disabled={answering}
          aria-disabled={allowDisabled}
          onClick={(event) => allow(event.currentTarget, "allow-once")}
        >
          Allow once
        </button>
        <button
          type="button"
          className="button"
          data-testid="approval-allow-card"
          disabled={answering}
          aria-disabled={allowDisabled}
          onClick={(event) => allow(event.currentTarget, "allow-card")}
        >
          Allow for this card
        </button>
        <button
          type="button"
          className="button"
          data-testid="approval-allow-conversation"
          disabled={answering}
          aria-disabled={allowDisabled}
          onClick={(event) => allow(event.currentTarget, "allow-conversation")}
        >
          Allow for this conversation
        </button>
      </div>
    </HostDialog>
  );
}

/**
 * The approval dialog: shows the oldest pending question about a card's tool call (which card,
 * which tool, its arguments and hints) and sends the person's answer. Several pending questions
 * wait in a queue and show one at a time with a counter. Focus starts on the dialog box and stays
 * in the dialog; the first Tab stop is Refuse, then the reason, then the allow buttons; Escape
 * refuses.
 *
 * It opens in the top layer, above every card (a card in full screen leaves it when the dialog
 * appears), and its allow buttons act only for a press that began a moment after it became
 * visible, and for a key only on a button the person moved to themselves
 * (`consent/consent-arming.ts`): a view cannot time a request to the keys it told the person to
 * press, to a key held down, or to a double click.
 *
 * @param props.arming - the arming clock and delay (tests).
 */
export function ApprovalDialog(props: { arming?: ConsentArmingOptions }) {
  const queue = useHostStore((state) => state.approvalQueue);
  const first = queue[0];
  if (first === undefined) return null;
  // A new request gets a fresh panel: its reason field, focus and arming start over.
  return (
    <ApprovalPanel
      key={first.approvalId}
      request={first}
      position={1}
      total={queue.length}
      arming={props.arming}
    />
  );
}
