import { useShallow } from "zustand/react/shallow";
import { useHostStore } from "../../state/host-store";
import { CardSlot } from "../chat/card-slot";

/**
 * The side panel: the session's panes, and the cards that belong to no chat (hand-built cards of
 * a session with several chats). Hidden when there are none.
 */
export function PanesPanel(props: { showUnassignedCards: boolean }) {
  const ids = useHostStore(
    useShallow((state) =>
      Object.values(state.cards)
        .filter(
          (entry) =>
            entry.closed === null &&
            (entry.descriptor.kind === "pane" ||
              (props.showUnassignedCards &&
                entry.descriptor.chatId === null &&
                entry.descriptor.messageId === undefined)),
        )
        .sort((left, right) => left.descriptor.createdAt - right.descriptor.createdAt)
        .map((entry) => entry.descriptor.instanceId),
    ),
  );
  if (ids.length === 0) return null;
  return (
    <aside className="panes-panel" aria-label="Panes" data-testid="panes-panel">
      {ids.map((instanceId) => (
        <CardSlot key={instanceId} instanceId={instanceId} chatId={null} />
      ))}
    </aside>
  );
}
