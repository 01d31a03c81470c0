import { fireEvent, render, screen } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import App from "./App.svelte";
import { sandboxBackend } from "./test/harness";
import { appView, balancesView } from "./test/fixtures";

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

  it("hides every amount with the header's eye or Ctrl+Shift+H, reading the figures again each time", async () => {
    let hidden = false;
    const fake = sandboxBackend({
      appState: () => appView({ privacy: hidden }),
      setPrivacy: (args) => {
        hidden = args.hidden;
        return appView({ privacy: hidden });
      },
      balances: () =>
        hidden ? { ...balancesView(), totalBtc: "••••• BTC", fiat: "••••• NOK", fiatRaw: null } : balancesView(),
    });
    render(App, { props: { backend: fake.backend } });
    await vi.waitFor(() => expect(screen.getByTestId("total-btc").textContent).toBe("0.60000000 BTC"));
    const eye = screen.getByTestId("privacy");
    expect(eye.getAttribute("aria-pressed")).toBe("false");
    await fireEvent.click(eye);
    await vi.waitFor(() => expect(screen.getByTestId("total-btc").textContent).toBe("••••• BTC"));
    expect(eye.getAttribute("aria-pressed")).toBe("true");
    expect(screen.getByTestId("fiat").dataset.raw).toBeUndefined();
    await fireEvent.keyDown(window, { key: "H", ctrlKey: true, shiftKey: true });
    await vi.waitFor(() => expect(screen.getByTestId("total-btc").textContent).toBe("0.60000000 BTC"));
    expect(fake.callsOf("setPrivacy")).toEqual([{ hidden: true }, { hidden: false }]);
  });

  it("welcomes a first start on the sandbox, says once that the money is play money, and leads on", async () => {
    let welcome = true;
    const fake = sandboxBackend({
      appState: () => appView({ welcome }),
      dismissWelcome: () => {
        welcome = false;
        return appView({ welcome });
      },
    });
    render(App, { props: { backend: fake.backend } });
    await vi.waitFor(() => screen.getByTestId("welcome"));
    expect(document.querySelectorAll(".badge")).toHaveLength(1);
    expect(screen.getByTestId("sandbox-strip").textContent).toContain("nothing you do here is real");
    await fireEvent.click(screen.getByTestId("welcome-keep"));
    await vi.waitFor(() => expect(screen.queryByTestId("welcome")).toBeNull());
    expect(fake.callsOf("dismissWelcome")).toHaveLength(1);
    await fireEvent.click(screen.getByTestId("strip-connect"));
    await vi.waitFor(() => screen.getByTestId("connect-steps"));
    expect(document.querySelector("nav [aria-current=page]")?.getAttribute("data-testid")).toBe("nav-connect");
  });
});
