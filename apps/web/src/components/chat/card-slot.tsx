import { CardView } from "../../cards";
import { useSocketContext } from "../../socket/socket-context";
import { useCardsStore } from "../../state/cards-store";
import { effectiveTheme, useThemeStore } from "../../state/theme-store";
import { useToolsStore } from "../../state/tools-store";
import { modelNameOf } from "./tool-label";

/**
 * Where a card shows in the conversation (or a pane in the side panel): the live card
 * (`cards/card-view.tsx`) while it is open; a one-line note once the person closed it. Without a
 * real socket (unit tests) it shows the card's title bar and state instead of the live view.
 * The card's tool shows by its own name; the model's name for it, when different, as a hint.
 */
export function CardSlot(props: { instanceId: string; chatId: string | null }) {
  const entry = useCardsStore((state) => state.cards[props.instanceId]);
  const markClosed = useCardsStore((state) => state.closed);
  const theme = useThemeStore(effectiveTheme);
  const { cardSocket } = useSocketContext();
  const chatTools = useToolsStore((state) => {
    const chatId = entry?.descriptor.chatId ?? props.chatId;
    return chatId === null ? undefined : state.chatTools[chatId];
  });
  if (entry === undefined) {
    return (
      <div className="card-note" data-testid="card-missing" role="note">
        This app is not available any more.
      </div>
    );
  }
  const { descriptor } = entry;
  const toolModelName = modelNameOf(descriptor.tool, descriptor.source, chatTools);
  if (entry.closed !== null) {
    return (
      <div className="card-note" data-testid="card-closed" data-instance-id={descriptor.instanceId}>
        Closed app: {descriptor.title} ({descriptor.source})
      </div>
    );
  }
  if (cardSocket !== null) {
    return (
      <CardView
        card={descriptor}
        chatId={props.chatId}
        socket={cardSocket}
        theme={theme}
        toolModelName={toolModelName}
        onClose={(instanceId) => markClosed(instanceId, "closed")}
      />
    );
  }
  return (
    <section
      className="card"
      data-testid="card"
      data-instance-id={descriptor.instanceId}
      aria-label={`App: ${descriptor.title}`}
    >
      <header className="card-title-bar">
        <span className="card-title">{descriptor.title}</span>
        <span
          className="card-source"
          data-testid="card-source"
          title={toolModelName !== null ? `The model calls this tool ${toolModelName}` : undefined}
        >
          {descriptor.source} · {descriptor.tool}
        </span>
      </header>
      <div className="card-body">
        {entry.closedByServer !== null
          ? `This app was closed: ${entry.closedByServer}`
          : entry.cancelled !== null
            ? `The app's tool call did not finish: ${entry.cancelled}`
            : entry.result === null
              ? "Waiting for the app's tool call…"
              : "The app's view shows here."}
      </div>
    </section>
  );
}
