import { type ChatResource, limits } from "@mcp-chat-host/protocol";
import { useEffect, useRef, useState } from "react";
import { listResources } from "../../actions/composer-offers";
import { useSocket } from "../../socket/socket-context";
import { composerOf } from "../../state/composer-slice";
import { useHostStore } from "../../state/host-store";
import { resourceLabel } from "./attachment-chips";

/**
 * The composer's Attach button: it lists the chat's resources (asked again each time it opens, so
 * a server's new resources show; the last list stays while the new one comes) and attaches the
 * one the person picks, at most `limits.maxAttachments`. Escape or a click elsewhere closes it.
 */
export function AttachMenu(props: { chatId: string }) {
  const { chatId } = props;
  const socket = useSocket();
  const attachments = useHostStore((state) => composerOf(state, chatId).attachments);
  const addAttachment = useHostStore((state) => state.addAttachment);
  const [open, setOpen] = useState(false);
  const [resources, setResources] = useState<ChatResource[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const full = attachments.length >= limits.maxAttachments;
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const outside = (event: MouseEvent) => {
      if (root.current !== null && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", outside);
    return () => document.removeEventListener("mousedown", outside);
  }, [open]);

  const toggle = () => {
    const opening = !open;
    setOpen(opening);
    if (!opening) return;
    setError(null);
    void listResources(socket, chatId).then((ack) => {
      if (ack.ok) setResources(ack.value);
      else setError(`The resources could not be listed: ${ack.error.message}`);
    });
  };
  const isAttached = (resource: ChatResource) =>
    attachments.some((entry) => entry.source === resource.source && entry.uri === resource.uri);

  return (
    <div
      className="attach-menu"
      ref={root}
      onKeyDown={(event) => {
        if (open && event.key === "Escape") {
          event.preventDefault();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        className="button button-secondary"
        data-testid="attach-button"
        aria-expanded={open}
        onClick={toggle}
      >
        Attach
      </button>
      {open ? (
        <div className="attach-menu-list" data-testid="attach-menu">
          {error !== null ? (
            <p className="composer-error" role="alert">
              {error}
            </p>
          ) : resources === null ? (
            <p className="attach-menu-note">Listing the resources…</p>
          ) : resources.length === 0 ? (
            <p className="attach-menu-note">This chat's servers offer no resources.</p>
          ) : (
            <ul aria-label="Resources">
              {resources.map((resource) => (
                <li key={`${resource.source} ${resource.uri}`}>
                  <button
                    type="button"
                    className="attach-menu-item"
                    data-testid="attach-option"
                    disabled={full || isAttached(resource)}
                    title={resource.description ?? resource.uri}
                    onClick={() => {
                      if (addAttachment(chatId, resource)) setOpen(false);
                    }}
                  >
                    {resourceLabel(resource)}{" "}
                    <span className="prompt-option-source">({resource.source})</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {full ? (
            <p className="attach-menu-note" data-testid="attach-full">
              A message takes at most {limits.maxAttachments} resources; remove one to add another.
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
