import { fireEvent, render, screen } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import App from "./App.svelte";
import { sandboxBackend } from "./test/harness";

describe("App", () => {
  it("opens the screens with Ctrl+1…Ctrl+8 in the navigation's order, and ignores other chords", async () => {
    const fake = sandboxBackend({
      openOrders: () => ({ orders: [] }),
      resolveOrders: () => ({ entries: [] }),
      tradeHistory: () => ({ trades: [] }),
      taxSyncStatus: () => ({
        state: "idle",
        requests: 0,
        received: 0,
        stored: 0,
        malformed: 0,
        permille: 0,
        reached: "",
        message: "",
      }),
      taxFacets: () => ({ years: [], accounts: [], types: [], subTypes: [], malformed: [], stored: 0 }),
      taxRows: () => ({ rows: [], offset: 0, total: 0 }),
    });
    render(App, { props: { backend: fake.backend } });
    await vi.waitFor(() => screen.getByTestId("total-btc"));
    const current = () => document.querySelector("nav [aria-current=page]")?.getAttribute("data-testid");
    expect(current()).toBe("nav-overview");
    await fireEvent.keyDown(window, { key: "2", ctrlKey: true });
    expect(current()).toBe("nav-trade");
    await fireEvent.keyDown(window, { key: "5", ctrlKey: true });
    expect(current()).toBe("nav-tax");
    await fireEvent.keyDown(window, { key: "9", ctrlKey: true });
    await fireEvent.keyDown(window, { key: "1", ctrlKey: true, altKey: true });
    await fireEvent.keyDown(window, { key: "1" });
    expect(current()).toBe("nav-tax");
    await vi.waitFor(() => screen.getByTestId("tax-sync"));
  });
});
