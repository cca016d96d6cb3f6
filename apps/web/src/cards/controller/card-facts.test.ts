// A card's controller follows its entry in the page's real store: each change is handed on in
// the order its view must hear it, whatever one store update carried, and other cards' changes
// are not.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cardEntryAccess, useHostStore } from "../../state/host-store";
import { resetStores } from "../../test-support/reset-stores";
import { showCards } from "../../test-support/store-state";
import { cardDescriptor } from "../../test-support/records";
import { followCardFacts } from "./card-facts";

let heard: string[];
let stop: () => void = () => undefined;

function follow(instanceId = "card-1") {
  heard = [];
  stop = followCardFacts(cardEntryAccess, instanceId, cardEntryAccess.get(instanceId), {
    inputPartial: (args) => heard.push(`partial ${JSON.stringify(args)}`),
    input: (args) => heard.push(`input ${JSON.stringify(args)}`),
    result: () => heard.push("result"),
    cancelled: (reason) => heard.push(`cancelled ${reason}`),
    closedByServer: (reason) => heard.push(`closed ${reason}`),
  });
}

beforeEach(() => {
  resetStores();
  showCards([
    cardDescriptor("card-1", { arguments: {}, inputStreaming: true, result: null }),
    cardDescriptor("card-2", { result: null }),
  ]);
});

afterEach(() => stop());

describe("followCardFacts", () => {
  it("hands on guesses, then the final arguments, then the result, then the close", () => {
    follow();
    const store = useHostStore.getState();
    store.cardInputChanged("card-1", { q: "c" }, false);
    store.cardResulted("card-2", { content: [] });
    store.cardInputChanged("card-1", { q: "cats" }, true);
    store.cardInputChanged("card-1", { q: "late" }, false);
    store.cardResulted("card-1", { content: [] });
    store.cardClosedByServer("card-1", "The app's server stopped.");
    expect(heard).toEqual([
      'partial {"q":"c"}',
      'input {"q":"cats"}',
      "result",
      "closed The app's server stopped.",
    ]);
  });

  it("hands on the input before the outcome when one update carries both", () => {
    follow();
    useHostStore.setState((state) => {
      const entry = state.cards["card-1"];
      if (entry === undefined) return state;
      const next = { ...entry, arguments: { q: "cats" }, inputFinal: true, cancelled: "Stopped." };
      return { cards: { ...state.cards, "card-1": next } };
    });
    expect(heard).toEqual(['input {"q":"cats"}', "cancelled Stopped."]);
  });

  it("hands on what changed between the entry the card was set up from and its start", () => {
    const known = cardEntryAccess.get("card-1");
    useHostStore.getState().cardInputChanged("card-1", { q: "cats" }, true);
    heard = [];
    stop = followCardFacts(cardEntryAccess, "card-1", known, {
      inputPartial: () => heard.push("partial"),
      input: (args) => heard.push(`input ${JSON.stringify(args)}`),
      result: () => heard.push("result"),
      cancelled: () => heard.push("cancelled"),
      closedByServer: () => heard.push("closed"),
    });
    expect(heard).toEqual(['input {"q":"cats"}']);
    stop();
    useHostStore.getState().cardResulted("card-1", { content: [] });
    expect(heard).toEqual(['input {"q":"cats"}']);
  });
});
