import type { AuditEntry } from "@mcp-chat-host/protocol";
import { useEffect, useId, useState } from "react";
import { listAudit } from "../../actions/list-audit";
import { useSocket } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";
import { formatDuration, formatTime } from "../../ui/format";
import { HostDialog } from "../../ui/host-dialog";
import { approvalText, verdictText } from "./audit-entry-text";

type Loaded =
  | { state: "loading" }
  | { state: "error"; message: string }
  | { state: "ready"; entries: AuditEntry[] };

function AuditRow(props: { entry: AuditEntry }) {
  const { entry } = props;
  const title = useHostStore((state) => state.cards[entry.instanceId]?.descriptor.title ?? null);
  const approval = approvalText(entry.approval);
  return (
    <li
      className={`audit-entry audit-entry-${entry.verdict}`}
      data-testid="audit-entry"
      data-verdict={entry.verdict}
      data-tool={entry.tool}
    >
      <div className="audit-entry-head">
        <time dateTime={new Date(entry.at).toISOString()}>{formatTime(entry.at)}</time>{" "}
        <strong data-testid="audit-source">
          {title === null ? entry.source : `${title} (${entry.source})`}
        </strong>{" "}
        called <code data-testid="audit-tool">{entry.tool}</code>
      </div>
      <div className="audit-entry-verdict" data-testid="audit-verdict">
        {verdictText(entry)} · {formatDuration(entry.durationMs)}
      </div>
      {approval !== null ? (
        <div className="audit-entry-approval" data-testid="audit-approval">
          {approval}
          {entry.approval?.answeredAt !== undefined
            ? ` (${formatTime(entry.approval.answeredAt)})`
            : ""}
        </div>
      ) : null}
    </li>
  );
}

/**
 * The audit of the open conversation for the person: every tool call its apps' views made,
 * newest first: which app called which tool, the verdict (ran, refused and why, failed), who
 * answered when the person was asked, and when. Read from the server (`audit:list`) each time it
 * opens. Escape closes it.
 *
 * @param props.conversationId - the open conversation, or null before it has a message.
 */
export function AuditPanel(props: { conversationId: string | null; onClose: () => void }) {
  const { conversationId, onClose } = props;
  const socket = useSocket();
  const [fetched, setFetched] = useState<Loaded>({ state: "loading" });
  // Before its first message a conversation has no audit to ask for.
  const loaded: Loaded = conversationId === null ? { state: "ready", entries: [] } : fetched;
  const titleId = useId();

  useEffect(() => {
    if (conversationId === null) return;
    let current = true;
    void listAudit(socket, conversationId).then((answer) => {
      if (!current) return;
      setFetched(
        answer.ok
          ? { state: "ready", entries: answer.entries }
          : { state: "error", message: answer.message },
      );
    });
    return () => {
      current = false;
    };
  }, [socket, conversationId]);

  return (
    <HostDialog
      className="modal audit-panel"
      labelledBy={titleId}
      testId="audit-panel"
      onEscape={onClose}
      onBackdropPress={onClose}
    >
      <header className="modal-header">
        <h2 id={titleId}>What the apps did in this conversation</h2>
        <button
          type="button"
          className="button button-quiet"
          onClick={onClose}
          data-testid="audit-panel-close"
        >
          Close
        </button>
      </header>
      {loaded.state === "loading" ? <p>Loading…</p> : null}
      {loaded.state === "error" ? (
        <p className="inline-error" role="alert">
          Could not ask the server: {loaded.message}
        </p>
      ) : null}
      {loaded.state === "ready" && loaded.entries.length === 0 ? (
        <p data-testid="audit-empty">No app has called a tool in this conversation.</p>
      ) : null}
      {loaded.state === "ready" && loaded.entries.length > 0 ? (
        <ol className="audit-list" data-testid="audit-list">
          {loaded.entries.map((entry) => (
            <AuditRow key={entry.id} entry={entry} />
          ))}
        </ol>
      ) : null}
    </HostDialog>
  );
}
