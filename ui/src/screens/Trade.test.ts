import { fireEvent, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { tick } from "svelte";
import { describe, expect, it, vi } from "vitest";
import type { OrderResultView, PlaceOrderArgs } from "../bindings";
import { amount, balancesView, btc, nok, price, quoteView } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import Trade from "./Trade.svelte";
import { TradeState } from "./trade.svelte";

function tradeBackend(place: (args: PlaceOrderArgs) => OrderResultView) {
  return sandboxBackend({
    openOrders: () => ({
      orders: [
        {
          orderId: "o1",
          orderType: "limit",
          direction: "sell",
          amount: amount("0.1 BTC", "0.1", "BTC"),
          amountNok: nok("100 000,00 NOK", "100000"),
          age: "1 min",
          price: price("NOK 1 100 000.00", "1100000"),
          accountId: "a2",
        },
        // An exchange that lists an order twice: the screen still draws.
        {
          orderId: "o1",
          orderType: "limit",
          direction: "sell",
          amount: amount("0.1 BTC", "0.1", "BTC"),
          amountNok: null,
          age: "1 min",
          price: null,
          accountId: null,
        },
      ],
    }),
    resolveOrders: () => ({ entries: [] }),
    tradeHistory: () => ({ trades: [] }),
    checkOrder: (f) => ({
      ok: f.amount !== "" && !Number.isNaN(Number(f.amount)),
      amountError: Number.isNaN(Number(f.amount)) ? "not a number" : null,
      priceError: null,
      warning: null,
      estimate: amount(`${f.amount} NOK`),
      estimateBasis: "at the ask, NOK 1,000,000.00, 12:00:00",
      summary: `Buy for ${f.amount} NOK`,
      available: f.direction === "buy" ? amount("NOK 25 000.00", "25000") : amount("0.5 BTC", "0.5", "BTC"),
      reviewed: `${f.direction}/${f.amount}`,
      saleTax:
        f.direction === "sell"
          ? {
              gain: "Gain NOK 100.00 by FIFO",
              tax: "Tax at 22 %: NOK 22.00",
              lots: [
                { id: "tr_1", time: "2025-01-02 10:00", btc: btc("0.1 BTC", "0.1"), cost: nok("NOK 900.00", "900") },
              ],
              refusal: null,
            }
          : null,
    }),
    placeOrder: place,
  });
}

describe("Trade: recent orders", () => {
  it("says each order's state in words, in both languages", async () => {
    const fake = tradeBackend(() => {
      throw new Error("not placed here");
    });
    const entry = (id: string, state: "placed" | "notPlaced" | "unknown") => ({
      id,
      state,
      what: `Buy ${id}`,
      orderId: null,
      tradeId: null,
      outcome: "",
    });
    fake.script.resolveOrders = () => ({
      entries: [entry("1", "notPlaced"), entry("2", "unknown"), entry("3", "placed")],
    });
    await mountScreen(Trade, fake);
    await vi.waitFor(() => expect(screen.getAllByTestId("journal-entry")).toHaveLength(3));
    const said = screen.getAllByTestId("journal-entry").map((e) => e.textContent);
    expect(said).toEqual(["Buy 1 — not placed", "Buy 2 — outcome unknown", "Buy 3 — placed"]);
  });
});

describe("Trade", () => {
  it("keeps the amount being typed, its caret and focus while prices redraw", async () => {
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "o2", tradeId: null, message: "Placed" }));
    const { session } = await mountScreen(Trade, fake);
    const amount = screen.getByTestId<HTMLInputElement>("order-amount");
    await userEvent.type(amount, "5000");
    amount.setSelectionRange(1, 3);
    for (let i = 0; i < 5; i++) {
      session.market.quote = quoteView(`1 00${i} 000,00`);
      session.holdings.balances = balancesView();
      fake.emit("changed", "price");
      await tick();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(document.activeElement).toBe(amount);
    expect(amount.value).toBe("5000");
    expect([amount.selectionStart, amount.selectionEnd]).toEqual([1, 3]);
    expect(screen.getAllByTestId("open-order")).toHaveLength(1);
  });

  it("keeps focus on an open order's cancel button while prices redraw", async () => {
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "o2", tradeId: null, message: "Placed" }));
    const { session } = await mountScreen(Trade, fake);
    const cancel = await screen.findByTestId("cancel-o1");
    cancel.focus();
    session.market.quote = quoteView("1 234 000,00");
    fake.emit("changed", "price");
    await new Promise((r) => setTimeout(r, 20));
    expect(document.activeElement).toBe(cancel);
  });

  it("shows what there is to buy with, or to sell", async () => {
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "o2", tradeId: null, message: "Placed" }));
    await mountScreen(Trade, fake);
    await userEvent.type(screen.getByTestId("order-amount"), "100");
    await vi.waitFor(() => expect(screen.getByTestId("order-available").textContent).toContain("NOK 25 000.00"));
  });

  it("a limit order starts at the bid, or the ask for a sale", async () => {
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "o2", tradeId: null, message: "Placed" }));
    await mountScreen(Trade, fake);
    await fireEvent.click(screen.getByTestId("type-limit"));
    expect(screen.getByTestId<HTMLInputElement>("order-price").value).toBe("999000");
    await fireEvent.click(screen.getByTestId("direction-sell"));
    expect(screen.getByTestId<HTMLInputElement>("order-price").value).toBe("1001000");
  });

  it("a sale shows the tax it would cost and the lots it would use before it is confirmed", async () => {
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "o2", tradeId: null, message: "Placed" }));
    await mountScreen(Trade, fake);
    await userEvent.type(screen.getByTestId("order-amount"), "0.1");
    expect(screen.queryByTestId("order-sale-tax")).toBeNull();
    await fireEvent.click(screen.getByTestId("direction-sell"));
    await vi.waitFor(() => expect(screen.getByTestId("order-sale-tax-tax").textContent).toBe("Tax at 22 %: NOK 22.00"));
    expect(screen.getByTestId("order-sale-tax-gain").textContent).toBe("Gain NOK 100.00 by FIFO");
    expect(screen.getByTestId("order-sale-tax-lots").textContent).toContain("tr_1");
  });

  it("sends the order reviewed once, shows an unknown outcome and arms nothing after it", async () => {
    const fake = tradeBackend(() => ({
      outcome: "unknown",
      orderId: null,
      tradeId: null,
      message: "The exchange's answer was lost.",
    }));
    const { session } = await mountScreen(Trade, fake);
    // A disabled Review says why.
    expect(screen.getByTestId("order-review-why").textContent).toBe("Type an amount to check the order.");
    await userEvent.type(screen.getByTestId("order-amount"), "5000");
    await vi.waitFor(() => expect(screen.getByTestId("order-review")).toHaveProperty("disabled", false));
    expect(screen.queryByTestId("order-review-why")).toBeNull();
    // The estimate and what it is at, a space apart.
    expect(screen.getByTestId("order-estimate").textContent?.trim()).toBe(
      "≈ 5000 NOK · at the ask, NOK 1,000,000.00, 12:00:00",
    );
    await fireEvent.click(screen.getByTestId("order-review"));
    expect(screen.getByTestId("order-summary").textContent).toBe("Buy for 5000 NOK");
    await fireEvent.click(screen.getByTestId("order-confirm"));
    await vi.waitFor(() => screen.getByTestId("order-unknown"));
    // Only the review's id goes: Rust places the order it checked.
    expect(fake.callsOf("placeOrder")).toEqual([{ reviewed: "buy/5000" }]);
    expect(screen.queryByTestId("order-confirm")).toBeNull();
    expect(screen.getByTestId("order-review")).toHaveProperty("disabled", true);
    // A screen reader hears the outcome.
    await vi.waitFor(() => expect(session.router.announcement).toBe("The exchange's answer was lost."));
    // The form kept is checked again: Review does not stay on "Checking…" (sending it again meets
    // the same-as-unknown question at the backend).
    await vi.waitFor(() => expect(screen.getByTestId("order-review")).toHaveProperty("disabled", false));
    expect(fake.callsOf("placeOrder")).toHaveLength(1);
  });

  it("on return to the screen forgets a placed order's message, and keeps an unknown one", async () => {
    let outcome: "placed" | "unknown" = "placed";
    const fake = tradeBackend(() => ({ outcome, orderId: null, tradeId: null, message: `It was ${outcome}.` }));
    const { session } = await mountScreen(Trade, fake);
    const trade = session.keep(TradeState);
    trade.result = { outcome: "placed", orderId: "o9", tradeId: null, message: "It was placed." };
    trade.arrived();
    expect(trade.result).toBeNull();
    outcome = "unknown";
    trade.result = { outcome: "unknown", orderId: null, tradeId: null, message: "It was unknown." };
    trade.arrived();
    expect(trade.result?.outcome).toBe("unknown");
  });
});

describe("Trade: what the order did", () => {
  it("says a refusal where the confirmation was, and nothing at the page's top", async () => {
    const fake = tradeBackend(() => {
      throw { code: "exchange", message: "HTTP 400: insufficient funds" };
    });
    await mountScreen(Trade, fake);
    await userEvent.type(screen.getByTestId("order-amount"), "5000");
    await vi.waitFor(() => expect(screen.getByTestId("order-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("order-review"));
    await fireEvent.click(screen.getByTestId("order-confirm"));
    const refusal = await screen.findByTestId("order-error");
    expect(refusal.textContent).toContain("insufficient funds");
    // In the form, right under the button pressed, and focused so it is read and in view.
    expect(screen.getByTestId("order-form").contains(refusal)).toBe(true);
    expect(document.activeElement).toBe(refusal);
    expect(screen.queryByTestId("trade-error")).toBeNull();
    // Editing the order clears it.
    await userEvent.type(screen.getByTestId("order-amount"), "0");
    expect(screen.queryByTestId("order-error")).toBeNull();
  });

  it("cancelled in the native dialog, says nothing was placed and keeps the review to confirm again", async () => {
    const fake = tradeBackend(() => {
      throw { code: "notConfirmed", message: "Nothing was sent: the confirmation was cancelled." };
    });
    await mountScreen(Trade, fake);
    await userEvent.type(screen.getByTestId("order-amount"), "5000");
    await vi.waitFor(() => expect(screen.getByTestId("order-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("order-review"));
    await fireEvent.click(screen.getByTestId("order-confirm"));
    expect((await screen.findByTestId("order-error")).textContent).toContain("Nothing was sent");
    expect(screen.getByTestId("order-summary")).toBeTruthy();
    await fireEvent.click(screen.getByTestId("order-confirm"));
    await vi.waitFor(() => expect(fake.callsOf("placeOrder")).toHaveLength(2));
    const [first, second] = fake.callsOf("placeOrder") as PlaceOrderArgs[];
    expect(second.reviewed).toBe(first.reviewed);
  });

  it("a placed buy says what it bought, for how much, and the fee, once the trade is read", async () => {
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "or_9", tradeId: "tr_9", message: "Placed." }));
    fake.script.tradeHistory = () => ({
      trades: [
        {
          id: "tr_9",
          time: "12:00",
          direction: "buy",
          account: "Main",
          btc: btc("0.00495 BTC", "0.00495"),
          nok: nok("NOK 4 975.00", "4975"),
          price: price("NOK 1 005 050.00", "1005050"),
          fee: amount("NOK 25.00", "25"),
        },
      ],
    });
    await mountScreen(Trade, fake);
    await userEvent.type(screen.getByTestId("order-amount"), "5000");
    await vi.waitFor(() => expect(screen.getByTestId("order-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("order-review"));
    await fireEvent.click(screen.getByTestId("order-confirm"));
    const fill = await screen.findByTestId("order-fill");
    expect(fill.textContent?.replace(/\s+/g, " ").trim()).toBe(
      "Bought 0.00495 BTC for NOK 4 975.00 · Price NOK 1 005 050.00 · Fee NOK 25.00",
    );
    expect(screen.getByTestId("order-placed").contains(fill)).toBe(true);
  });
});

describe("Trade: an unknown outcome settled", () => {
  it("is said in the backend's words, never the window's own", async () => {
    const fake = tradeBackend(() => ({ outcome: "unknown", orderId: null, tradeId: null, message: "Unknown." }));
    await mountScreen(Trade, fake);
    await userEvent.type(screen.getByTestId("order-amount"), "5000");
    await vi.waitFor(() => expect(screen.getByTestId("order-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("order-review"));
    await fireEvent.click(screen.getByTestId("order-confirm"));
    await vi.waitFor(() => screen.getByTestId("order-unknown"));
    fake.script.resolveOrders = () => ({
      entries: [
        {
          id: "9",
          state: "placed",
          what: "Buy",
          orderId: "or_9",
          tradeId: null,
          outcome: "Ordren ble lagt inn.",
        },
      ],
    });
    await vi.waitFor(() => expect(screen.getByTestId("order-placed").textContent).toContain("Ordren ble lagt inn."), {
      timeout: 4000,
    });
  });
});

describe("Trade: cancelling", () => {
  it("cancels only on the second click, and offers 'cancel anyway' when an unknown order could be this one", async () => {
    let refused = true;
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "o2", tradeId: null, message: "Placed" }));
    fake.script.cancelOrder = (args) => {
      if (refused && !args.anyway) throw { code: "mayBeUnknown", message: "An unknown order could be this one." };
      refused = false;
      return { orders: [] };
    };
    await mountScreen(Trade, fake);
    await fireEvent.click(await screen.findByTestId("cancel-o1"));
    expect(fake.callsOf("cancelOrder")).toEqual([]);
    expect(screen.getByTestId("cancel-o1").textContent).toBe("Confirm cancel");
    await fireEvent.click(screen.getByTestId("cancel-o1"));
    await vi.waitFor(() => screen.getByTestId("cancel-anyway-o1"));
    // Said by the open orders, where the click was.
    const refusal = screen.getByTestId("cancel-error");
    expect(refusal.textContent).toContain("unknown order");
    expect(document.activeElement).toBe(refusal);
    expect(screen.queryByTestId("trade-error")).toBeNull();
    await fireEvent.click(screen.getByTestId("cancel-anyway-o1"));
    await vi.waitFor(() => screen.getByTestId("no-open-orders"));
    expect(fake.callsOf("cancelOrder")).toEqual([{ orderId: "o1" }, { orderId: "o1", anyway: true }]);
    // The cancel is said.
    expect(screen.getByTestId("order-cancelled").textContent).toBe("The order was cancelled.");
  });
});

describe("Trade: the keyboard", () => {
  it("Enter in the amount reviews the order, focus goes to the summary, and then to the result", async () => {
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "o2", tradeId: null, message: "Placed" }));
    await mountScreen(Trade, fake);
    const amount = screen.getByTestId<HTMLInputElement>("order-amount");
    await userEvent.type(amount, "5000");
    await vi.waitFor(() => expect(screen.getByTestId("order-review")).toHaveProperty("disabled", false));
    await userEvent.type(amount, "{Enter}");
    await vi.waitFor(() => screen.getByTestId("order-summary"));
    // Not the page's body: the step that replaced the button, read out whole.
    expect(document.activeElement?.contains(screen.getByTestId("order-summary"))).toBe(true);
    // Enter again does not confirm: that takes the Confirm button.
    await userEvent.type(amount, "{Enter}");
    expect(fake.callsOf("placeOrder")).toHaveLength(0);
    await fireEvent.click(screen.getByTestId("order-confirm"));
    await vi.waitFor(() => screen.getByTestId("order-placed"));
    expect(document.activeElement).toBe(screen.getByTestId("order-placed"));
  });
});

describe("Trade: the account shown", () => {
  it("is the exchange's default when learned, else the first listed", async () => {
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "o2", tradeId: null, message: "Placed" }));
    const { session } = await mountScreen(Trade, fake);
    const select = await screen.findByTestId<HTMLSelectElement>("order-account");
    expect(select.value).toBe("a1");
    session.holdings.balances = { ...balancesView(), defaultAccount: "a2" };
    await tick();
    expect(select.value).toBe("a2");
    // A default no longer listed is not shown.
    session.holdings.balances = { ...balancesView(), defaultAccount: "gone" };
    await tick();
    expect(select.value).toBe("a1");
  });
});

describe("Trade: open orders", () => {
  it("shows an order's limit price and account when Nordlys placed it", async () => {
    const fake = tradeBackend(() => ({ outcome: "placed", orderId: "o2", tradeId: null, message: "Placed" }));
    await mountScreen(Trade, fake);
    await vi.waitFor(() => screen.getAllByTestId("open-order"));
    expect(screen.getAllByTestId("open-order-price")[0].textContent).toBe("NOK 1 100 000.00");
    expect(screen.getAllByTestId("open-order-account")[0].textContent?.trim()).toBe("Savings");
  });
});
