import { type ChatResource, limits } from "@mcp-chat-host/protocol";
import { useState } from "react";
import { listResources } from "../../actions/composer-offers";
import { useSocket } from "../../socket/socket-context";
import { composerOf } from "../../state/composer-slice";
import { useHostStore } from "../../state/host-store";
import { resourceLabel } from "./attachment-chips";

/**
 * The composer's Attach button: it lists the chat's resources (asked the first time it opens) and
 * attaches the one the person picks, at most `limits.maxAttachments`.
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

  const toggle = () => {
    const opening = !open;
    setOpen(opening);
    if (!opening || resources !== null) return;
    setError(null);
    void listResources(socket, chatId).then((ack) => {
      if (ack.ok) setResources(ack.value);
      else setError(`The resources could not be listed: ${ack.error.message}`);
    });
  };
  const isAttached = (resource: ChatResource) =>
    attachments.some((entry) => entry.source === resource.source && entry.uri === resource.uri);

  return (
    <div className="attach-menu">
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
