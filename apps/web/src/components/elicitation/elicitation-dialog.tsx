import { elicitationFields, type ElicitationRequest } from "@mcp-chat-host/protocol";
import { useCallback, useId, useMemo, useRef } from "react";
import { answerElicitation } from "../../actions/answer-elicitation";
import { ConsentHint } from "../../consent/consent-hint";
import type { ConsentArmingOptions } from "../../consent/consent-arming";
import { useConsentArming } from "../../consent/use-consent-arming";
import { useSocket } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";
import { HostDialog } from "../../ui/host-dialog";
import { ElicitationForm } from "./elicitation-form";
import { ElicitationUrl } from "./elicitation-url";
import "./elicitation.css";

type Action = "accept" | "decline" | "cancel";

function ElicitationPanel(props: {
  request: ElicitationRequest;
  total: number;
  arming: ConsentArmingOptions | undefined;
}) {
  const { request, total } = props;
  const socket = useSocket();
  const busy = useHostStore((state) => state.answeringElicitation !== null);
  const error = useHostStore((state) => state.elicitationError);
  const dialog = useRef<HTMLDivElement>(null);
  const consent = useConsentArming(dialog, props.arming);
  const titleId = useId();
  const fields = useMemo(
    () => (request.mode === "form" ? elicitationFields(request.requestedSchema) : null),
    [request],
  );

  const answer = useCallback(
    (action: Action, content?: Record<string, unknown>) => {
      void answerElicitation(socket, {
        elicitationId: request.elicitationId,
        action,
        ...(content === undefined ? {} : { content }),
      });
    },
    [socket, request.elicitationId],
  );
  const cancel = useCallback(() => answer("cancel"), [answer]);

  let body;
  if (request.mode === "url") {
    body = (
      <ElicitationUrl
        server={request.server}
        url={request.url ?? ""}
        busy={busy}
        consent={consent}
        onAnswer={answer}
      />
    );
  } else if (fields === null) {
    // The host checks the schema before asking; a form it cannot show is declined.
    body = (
      <p className="inline-error" role="alert">
        This form cannot be shown here. Decline it, or cancel.
      </p>
    );
  } else {
    body = <ElicitationForm fields={fields} busy={busy} consent={consent} onAnswer={answer} />;
  }

  return (
    <HostDialog
      dialogRef={dialog}
      className="modal elicitation-dialog"
      role="alertdialog"
      labelledBy={titleId}
      testId="elicitation-dialog"
      onEscape={cancel}
      attributes={{
        "data-elicitation-id": request.elicitationId,
        "data-armed": String(consent.armed),
        "data-key-armed": String(consent.keyArmed),
      }}
    >
      <header className="modal-header">
        <h2 id={titleId}>
          <span data-testid="elicitation-server">{request.server}</span> asks
        </h2>
        {total > 1 ? (
          <span className="approval-counter" data-testid="elicitation-counter">
            1 of {total}
          </span>
        ) : null}
      </header>
      <p className="elicitation-message" data-testid="elicitation-message">
        {request.message}
      </p>
      {error !== null ? (
        <p className="inline-error" role="alert" data-testid="elicitation-error">
          {error}
        </p>
      ) : null}
      <ConsentHint refusal={consent.refusal} />
      {body}
    </HostDialog>
  );
}

/**
 * The dialog of a server's question (MCP elicitation): names the server, shows its message as
 * plain text, then its form (checked before it is sent) or the page it asks the person to open
 * (opened only on Open). Several questions wait in a queue and show one at a time; a question
 * answered in another tab, withdrawn or timed out closes (`elicitation:settled`). The focus
 * starts on the dialog, not on a button, and Decline comes before Submit or Open in the tab order;
 * Escape cancels; Submit and Open act only for a press that began a moment after the dialog
 * became visible, on the button itself (Enter in a field does not submit), and for a key only
 * once the person moved to the button themselves (`consent/consent-arming.ts`).
 *
 * @param props.arming - the arming clock and delay (tests).
 */
export function ElicitationDialog(props: { arming?: ConsentArmingOptions }) {
  const queue = useHostStore((state) => state.elicitationQueue);
  const first = queue[0];
  if (first === undefined) return null;
  // A new question gets a fresh panel: its values, focus and arming start over.
  return (
    <ElicitationPanel
      key={first.elicitationId}
      request={first}
      total={queue.length}
      arming={props.arming}
    />
  );
}
