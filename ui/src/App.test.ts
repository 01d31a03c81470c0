import { fireEvent, render, screen } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import App from "./App.svelte";
import { sandboxBackend } from "./test/harness";
import { appView, balancesView, btc, nok } from "./test/fixtures";

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
        failure: null,
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

  it("offers to put the key back or start fresh while the local data does not open, then shows the screens", async () => {
    let opens = false;
    const fake = sandboxBackend({
      appState: () => {
        if (!opens) throw { code: "storeKey", message: "Your local data is encrypted, and the keyring holds no key." };
        return appView();
      },
      restoreStoreKey: ({ key }) => {
        if (key !== "ab".repeat(32)) throw { code: "invalidInput", message: "This key does not open your local data." };
        opens = true;
        return { setAside: null };
      },
    });
    render(App, { props: { backend: fake.backend } });
    await vi.waitFor(() => screen.getByTestId("store-recovery"));
    expect(screen.getByTestId("store-recovery-reason").textContent).toContain("holds no key");
    expect(screen.queryByTestId("total-btc")).toBeNull();
    await fireEvent.input(screen.getByTestId("restore-key"), { target: { value: "cd".repeat(32) } });
    await fireEvent.click(screen.getByTestId("restore-key-save"));
    await vi.waitFor(() =>
      expect(screen.getByTestId("restore-key-error").textContent).toBe("This key does not open your local data."),
    );
    expect(screen.getByTestId("store-recovery")).toBeTruthy();
    // Starting fresh asks once more before anything is moved.
    await fireEvent.click(screen.getByTestId("start-fresh"));
    expect(fake.callsOf("startFreshStore")).toEqual([]);
    screen.getByTestId("start-fresh-confirm");
    await fireEvent.input(screen.getByTestId("restore-key"), { target: { value: "ab".repeat(32) } });
    await fireEvent.click(screen.getByTestId("restore-key-save"));
    await vi.waitFor(() => screen.getByTestId("total-btc"));
    expect(screen.queryByTestId("store-recovery")).toBeNull();
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
        hidden ? { ...balancesView(), totalBtc: btc("••••• BTC"), fiat: nok("••••• NOK") } : balancesView(),
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

  it("locks from the header, asking for a password first, and shows nothing of the user's until unlocked", async () => {
    const lock = { set: false, locked: false, why: null, idleMinutes: 15, beforePayments: true };
    const app = () => appView({ lock: { ...lock } });
    const fake = sandboxBackend({
      appState: app,
      setLockPassword: (args) => {
        if (args.password.length < 8)
          return {
            problems: [{ field: "password", message: "The password needs at least 8 characters." }],
            app: app(),
          };
        lock.set = true;
        lock.locked = true;
        return { problems: [], app: app() };
      },
      unlock: (args) => {
        if (args.password !== "correct horse")
          return { problems: [{ field: "password", message: "That is not the lock's password." }], app: app() };
        lock.locked = false;
        return { problems: [], app: app() };
      },
      lock: () => {
        lock.locked = true;
        return app();
      },
    });
    render(App, { props: { backend: fake.backend } });
    await vi.waitFor(() => screen.getByTestId("total-btc"));
    await fireEvent.click(screen.getByTestId("lock"));
    await fireEvent.input(screen.getByTestId("new-password"), { target: { value: "short" } });
    await fireEvent.input(screen.getByTestId("new-password-confirm"), { target: { value: "short" } });
    await fireEvent.click(screen.getByTestId("new-password-save"));
    await vi.waitFor(() => screen.getByTestId("new-password-error"));
    expect(screen.queryByTestId("locked")).toBeNull();
    await fireEvent.input(screen.getByTestId("new-password"), { target: { value: "correct horse" } });
    await fireEvent.input(screen.getByTestId("new-password-confirm"), { target: { value: "correct horse" } });
    await fireEvent.click(screen.getByTestId("new-password-save"));
    await vi.waitFor(() => screen.getByTestId("locked"));
    expect(screen.queryByTestId("total-btc")).toBeNull();
    expect(document.querySelector("nav")).toBeNull();
    expect(document.body.textContent).not.toContain("BTC");

    await fireEvent.input(screen.getByTestId("unlock-password"), { target: { value: "wrong one" } });
    await fireEvent.click(screen.getByTestId("unlock"));
    await vi.waitFor(() => screen.getByTestId("unlock-password-error"));
    await fireEvent.input(screen.getByTestId("unlock-password"), { target: { value: "correct horse" } });
    await fireEvent.click(screen.getByTestId("unlock"));
    await vi.waitFor(() => screen.getByTestId("total-btc"));

    // Ctrl+L locks at once now that a password is set.
    await fireEvent.keyDown(window, { key: "l", ctrlKey: true });
    await vi.waitFor(() => screen.getByTestId("locked"));
    expect(screen.queryByTestId("total-btc")).toBeNull();
  });
});
