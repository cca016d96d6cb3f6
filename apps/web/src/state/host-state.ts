// The shape of the page's one store: the slices side by side, flat, as zustand's slices pattern
// has them. Each fact is stored once; what follows from stored facts is a selector. The slices'
// shapes live in `types/`, which imports nothing of the store, so imports point one way: the
// slice creators import this file, and this file imports only the shapes.
import type { StateCreator } from "zustand";
import type { ApprovalsSlice } from "./types/approvals";
import type { CardViewsSlice } from "./types/card-views";
import type { CardsSlice } from "./types/cards";
import type { ComposerSlice } from "./types/composer";
import type { ContextSlice } from "./types/context";
import type { ElicitationsSlice } from "./types/elicitations";
import type { ConversationsSlice } from "./types/conversations";
import type { HostActions } from "./types/host-actions";
import type { MessagesSlice } from "./types/messages";
import type { ServersSlice } from "./types/servers";
import type { SessionSlice } from "./types/session";
import type { ToolsSlice } from "./types/tools";

/** Everything the page knows, and every action on it. */
export type HostState = SessionSlice &
  ConversationsSlice &
  MessagesSlice &
  CardsSlice &
  CardViewsSlice &
  ToolsSlice &
  ComposerSlice &
  ApprovalsSlice &
  ElicitationsSlice &
  ContextSlice &
  ServersSlice &
  HostActions;

/** How a slice is made: it may read and write the whole state, and returns its own part. */
export type HostSliceCreator<Slice> = StateCreator<HostState, [], [], Slice>;
