import type { CardDescriptor } from "@mcp-chat-host/protocol";
import { useRef } from "react";
import { CardView, type CardViewProps } from "../../cards/card-view";
import { CardStandIn } from "../../cards/card-stand-in";
import { pageLiveViews } from "../../cards/live-view-budget";
import { reportTextOf } from "../../cards/page-request-tracking";
import type { Theme } from "../../state/theme-store";
import { useLiveView } from "../../cards/use-live-view";
import { useSocket } from "../../socket/socket-context";
import { useHostStore } from "../../state/host-store";
import { effectiveTheme, useThemeStore } from "../../state/theme-store";
import { modelNameOf } from "./tool-label";

/**
 * Where a card shows in the conversation (or a pane in the side panel): the live card
 * (`cards/card-view.tsx`) while it is open; a one-line note once the person closed it.
 * The card's tool shows by its own name; the model's name for it, when different, as a hint.
 * A conversation's cards are live only near the viewport, within the page's live view budget
 * (`cards/live-view-budget.ts`); elsewhere a light stand-in shows. Panes are always live.
 */
export function CardSlot(props: { instanceId: string; chatId: string | null }) {
  const entry = useHostStore((state) => state.cards[props.instanceId]);
  const markClosed = useHostStore((state) => state.cardClosed);
  const theme = useThemeStore(effectiveTheme);
  const socket = useSocket();
  const chatTools = useHostStore((state) => {
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
  return (
    <BudgetedCard
      descriptor={descriptor}
      chatId={props.chatId}
      socket={socket}
      theme={theme}
      toolModelName={toolModelName}
      result={entry.result}
      onClose={(instanceId) => {
        pageLiveViews.forget(instanceId);
        markClosed(instanceId, "closed");
      }}
    />
  );
}

/** A card's place in the page: its live view while the budget gives it one, else its stand-in. */
function BudgetedCard(props: {
  descriptor: CardDescriptor;
  chatId: string | null;
  socket: CardViewProps["socket"];
  theme: Theme;
  toolModelName: string | null;
  result: Record<string, unknown> | null;
  onClose: (instanceId: string) => void;
}) {
  const { descriptor } = props;
  const slot = useRef<HTMLDivElement>(null);
  const budgeted = descriptor.kind === "card";
  const state = useLiveView(descriptor.instanceId, slot, budgeted);
  const memory = budgeted ? pageLiveViews.memoryOf(descriptor.instanceId) : undefined;
  const live = state === "live" || state === "pausing";
  const pausedAt = memory?.pausedAt ?? null;
  return (
    <div ref={slot} className="card-slot" data-live-view={state}>
      {live ? (
        <CardView
          card={descriptor}
          chatId={props.chatId}
          socket={props.socket}
          theme={props.theme}
          toolModelName={props.toolModelName}
          onClose={props.onClose}
          onReport={(instanceId, text) => pageLiveViews.noteReport(instanceId, text)}
          resume={
            pausedAt === null ? undefined : { pausedAt, frameHeight: memory?.frameHeight ?? null }
          }
          bindLiveView={
            budgeted
              ? (control) => pageLiveViews.bindView(descriptor.instanceId, control)
              : undefined
          }
        />
      ) : (
        <CardStandIn
          instanceId={descriptor.instanceId}
          title={descriptor.title}
          source={descriptor.source}
          tool={descriptor.tool}
          state={state}
          memory={memory}
          resultText={reportTextOf({ content: asArray(props.result?.["content"]) }) ?? ""}
        />
      )}
    </div>
  );
}

function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? (value as unknown[]) : undefined;
}
