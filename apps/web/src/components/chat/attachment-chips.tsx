import { composerOf } from "../../state/composer-slice";
import { useHostStore } from "../../state/host-store";

/** The name a resource is shown by: its title, else its name, else its URI. */
export function resourceLabel(resource: {
  title?: string | undefined;
  name?: string | undefined;
  uri: string;
}): string {
  return resource.title ?? resource.name ?? resource.uri;
}

/** The resources attached to the message being written, each with a button that removes it. */
export function AttachmentChips(props: { chatId: string }) {
  const { chatId } = props;
  const attachments = useHostStore((state) => composerOf(state, chatId).attachments);
  const removeAttachment = useHostStore((state) => state.removeAttachment);
  if (attachments.length === 0) return null;
  return (
    <ul className="attachment-chips" aria-label="Attached resources" data-testid="attachment-chips">
      {attachments.map((resource) => (
        <li
          key={`${resource.source} ${resource.uri}`}
          className="attachment-chip"
          data-testid="attachment-chip"
        >
          <span title={resource.uri}>{resourceLabel(resource)}</span>
          <button
            type="button"
            className="attachment-chip-remove"
            aria-label={`Remove ${resourceLabel(resource)}`}
            onClick={() => removeAttachment(chatId, resource.source, resource.uri)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
