import { fireEvent, render, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { appView } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import App from "../App.svelte";
import Settings from "./Settings.svelte";

describe("Settings", () => {
  it("switches the language, then the unit right after, while the first is still being applied", async () => {
    const fake = sandboxBackend({
      setLanguage: ({ language }) => appView({ language: language ?? "en", languageSetting: language }),
      setUnit: ({ unit }) => appView({ language: "nb", languageSetting: "nb", unit }),
    });
    await mountScreen(Settings, fake);
    await userEvent.selectOptions(screen.getByTestId("language"), "nb");
    await userEvent.selectOptions(screen.getByTestId("unit"), "sats");
    await vi.waitFor(() => expect(fake.callsOf("setUnit")).toHaveLength(1));
    expect(fake.callsOf("setLanguage")).toEqual([{ language: "nb" }]);
    expect(fake.callsOf("setUnit")).toEqual([{ unit: "sats" }]);
    expect(screen.getByTestId<HTMLSelectElement>("unit").value).toBe("sats");
  });
});

describe("Settings: theme", () => {
  it("applies the theme chosen at once, and follows the system again when asked", async () => {
    const fake = sandboxBackend({
      setTheme: ({ theme }) => appView({ themeSetting: theme }),
      priceChart: () => ({ svg: "<svg/>", samples: 3, daily: 0, readout: [], plotLeft: 0.1, plotRight: 0.9 }),
    });
    render(App, { props: { backend: fake.backend } });
    await vi.waitFor(() => screen.getByTestId("total-btc"));
    await fireEvent.click(screen.getByTestId("nav-settings"));
    await userEvent.selectOptions(screen.getByTestId("theme"), "dark");
    await vi.waitFor(() => expect(document.documentElement.dataset.theme).toBe("dark"));
    // The charts are drawn again, dark.
    await vi.waitFor(() => expect(fake.callsOf("priceChart").at(-1)?.dark).toBe(true));
    await userEvent.selectOptions(screen.getByTestId("theme"), "auto");
    await vi.waitFor(() => expect(document.documentElement.dataset.theme).toBeUndefined());
    expect(fake.callsOf("setTheme")).toEqual([{ theme: "dark" }, { theme: null }]);
  });
});

describe("Settings: request timeout", () => {
  it("saves the seconds typed, empty for the default, and says at the field what became of each", async () => {
    const fake = sandboxBackend({
      setRequestTimeout: ({ seconds }) => {
        if (seconds !== null && seconds > 120) throw { code: "invalidInput", message: "Between 5 and 120 seconds." };
        return appView({ requestTimeoutSecs: seconds ?? 30 });
      },
    });
    await mountScreen(Settings, fake);
    const field = screen.getByTestId<HTMLInputElement>("request-timeout");
    await fireEvent.change(field, { target: { value: "600" } });
    await vi.waitFor(() => expect(screen.getByTestId("request-timeout-error").textContent).toContain("120"));
    expect(screen.queryByTestId("message-error")).toBeNull();
    await fireEvent.change(field, { target: { value: "45" } });
    await vi.waitFor(() => screen.getByTestId("request-timeout-ok"));
    await fireEvent.change(field, { target: { value: "" } });
    await vi.waitFor(() => expect(fake.callsOf("setRequestTimeout")).toHaveLength(3));
    expect(fake.callsOf("setRequestTimeout")).toEqual([{ seconds: 600 }, { seconds: 45 }, { seconds: null }]);
  });

  it("refuses text that is not a number at the field and saves nothing", async () => {
    const fake = sandboxBackend({ setRequestTimeout: () => appView() });
    await mountScreen(Settings, fake);
    await fireEvent.change(screen.getByTestId("request-timeout"), { target: { value: "abc" } });
    await vi.waitFor(() => screen.getByTestId("request-timeout-error"));
    expect(screen.queryByTestId("request-timeout-ok")).toBeNull();
    expect(fake.callsOf("setRequestTimeout")).toEqual([]);
  });
});

describe("Settings: tax rate", () => {
  it("says a refused rate at the rate field, not Saved", async () => {
    const fake = sandboxBackend({
      setTaxRules: ({ incomeTaxPercent }) => {
        if (incomeTaxPercent === "abc") throw { code: "invalidInput", message: "A rate is a percentage." };
        return appView();
      },
    });
    await mountScreen(Settings, fake);
    await fireEvent.change(screen.getByTestId("income-tax-percent"), { target: { value: "abc" } });
    await vi.waitFor(() =>
      expect(screen.getByTestId("income-tax-percent-error").textContent).toBe("A rate is a percentage."),
    );
    expect(screen.queryByTestId("message-ok")).toBeNull();
    await fireEvent.change(screen.getByTestId("income-tax-percent"), { target: { value: "22" } });
    await vi.waitFor(() => screen.getByTestId("income-tax-percent-ok"));
  });
});

describe("Settings: the window closed, and login", () => {
  it("asks at the first close whether Nordlys stays in the tray, and keeps the answer", async () => {
    const fake = sandboxBackend({ answerClose: () => ({}) });
    render(App, { props: { backend: fake.backend } });
    await vi.waitFor(() => screen.getByTestId("total-btc"));
    expect(screen.queryByTestId("close-choice")).toBeNull();
    fake.emit("changed", "closeAsked");
    await vi.waitFor(() => screen.getByTestId("close-choice"));
    await fireEvent.click(screen.getByTestId("close-keep"));
    await vi.waitFor(() => expect(screen.queryByTestId("close-choice")).toBeNull());
    expect(fake.callsOf("answerClose")).toEqual([{ keepInTray: true }]);
  });

  it("opens the screen a clicked notification is about", async () => {
    const fake = sandboxBackend();
    render(App, { props: { backend: fake.backend } });
    await vi.waitFor(() => screen.getByTestId("total-btc"));
    fake.emit("open", "settings");
    await vi.waitFor(() => screen.getByTestId("start-at-login"));
  });

  it("keeps Nordlys in the tray and starts it at login when asked, and says when it cannot", async () => {
    const fake = sandboxBackend({
      setCloseToTray: ({ keepInTray }) => appView({ closeToTray: keepInTray }),
      setStartAtLogin: ({ startAtLogin }) => appView({ startAtLogin }),
    });
    await mountScreen(Settings, fake);
    await fireEvent.click(screen.getByTestId("close-to-tray"));
    await fireEvent.click(screen.getByTestId("start-at-login"));
    await vi.waitFor(() => expect(fake.callsOf("setStartAtLogin")).toEqual([{ startAtLogin: true }]));
    expect(fake.callsOf("setCloseToTray")).toEqual([{ keepInTray: true }]);
    await vi.waitFor(() => expect(screen.getByTestId<HTMLInputElement>("start-at-login").checked).toBe(true));

    const unavailable = "Nordlys cannot start itself at login on this system yet.";
    const none = sandboxBackend({
      appState: () => appView({ startAtLogin: null, startAtLoginUnavailable: unavailable }),
    });
    const other = await mountScreen(Settings, none);
    const toggles = other.getAllByTestId("start-at-login") as HTMLInputElement[];
    expect(toggles.at(-1)?.disabled).toBe(true);
    expect(other.container.textContent).toContain(unavailable);
  });
});

describe("Settings: the data's key", () => {
  it("shows the key only when asked, with the lock's password when a lock is set, and hides it again", async () => {
    const groups = "0123 4567 89ab cdef 0123 4567 89ab cdef 0123 4567 89ab cdef 0123 4567 89ab cdef";
    const fake = sandboxBackend({
      storeKey: ({ password }) => {
        if (password !== "correct horse") throw { code: "passwordNeeded", message: "That is not the lock's password." };
        return { kind: "key", groups };
      },
    });
    const locked = appView({ lock: { set: true, locked: false, why: null, idleMinutes: 15, beforePayments: true } });
    const { session } = await mountScreen(Settings, fake);
    session.appLock.app = locked;
    expect(screen.queryByTestId("store-key")).toBeNull();
    await userEvent.type(await screen.findByTestId("store-key-password"), "wrong");
    await fireEvent.click(screen.getByTestId("show-store-key"));
    await vi.waitFor(() =>
      expect(screen.getByTestId("store-key-password-error").textContent).toBe("That is not the lock's password."),
    );
    expect(screen.queryByTestId("store-key")).toBeNull();
    await userEvent.clear(screen.getByTestId("store-key-password"));
    await userEvent.type(screen.getByTestId("store-key-password"), "correct horse");
    await fireEvent.click(screen.getByTestId("show-store-key"));
    await vi.waitFor(() => expect(screen.getByTestId("store-key").textContent).toBe(groups));
    expect(fake.callsOf("storeKey").at(-1)).toEqual({ password: "correct horse" });
    await fireEvent.click(screen.getByTestId("hide-store-key"));
    expect(screen.queryByTestId("store-key")).toBeNull();
  });

  it("seals the key under the lock's password only with a lock, saying first what sealing costs", async () => {
    let sealed = false;
    const fake = sandboxBackend({
      storeSeal: () => (sealed ? "sealed" : "keyring"),
      sealStoreKey: (args) => {
        if (args.password !== "correct horse")
          throw { code: "passwordNeeded", message: "That is not the lock's password." };
        sealed = args.sealed;
        return sealed ? "sealed" : "keyring";
      },
    });
    const { session } = await mountScreen(Settings, fake);
    await vi.waitFor(() => screen.getByTestId("store-seal-needs-lock"));
    expect(screen.queryByTestId("store-seal-change")).toBeNull();
    session.appLock.app = appView({
      lock: { set: true, locked: false, why: null, idleMinutes: 15, beforePayments: true },
    });
    await userEvent.type(await screen.findByTestId("store-seal-password"), "wrong");
    await fireEvent.click(screen.getByTestId("store-seal-change"));
    await vi.waitFor(() =>
      expect(screen.getByTestId("store-seal-password-error").textContent).toBe("That is not the lock's password."),
    );
    expect(sealed).toBe(false);
    await userEvent.clear(screen.getByTestId("store-seal-password"));
    await userEvent.type(screen.getByTestId("store-seal-password"), "correct horse");
    await fireEvent.click(screen.getByTestId("store-seal-change"));
    await vi.waitFor(() => expect(sealed).toBe(true));
    expect(fake.callsOf("sealStoreKey").at(-1)).toEqual({ password: "correct horse", sealed: true });
    expect(screen.getByTestId("store-seal-change").textContent?.trim()).toBe("Stop sealing the key");
  });

  it("says there is no key when the sandbox keeps its play money in memory", async () => {
    const fake = sandboxBackend({ storeKey: () => ({ kind: "inMemory" }) });
    await mountScreen(Settings, fake);
    await fireEvent.click(await screen.findByTestId("show-store-key"));
    await vi.waitFor(() => screen.getByTestId("store-key-in-memory"));
    expect(fake.callsOf("storeKey")).toEqual([{ password: null }]);
  });
});
