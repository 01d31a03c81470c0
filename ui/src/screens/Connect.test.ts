import { fireEvent, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { tick } from "svelte";
import { describe, expect, it } from "vitest";
import { appView, balancesView } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import Connect from "./Connect.svelte";

describe("Connect", () => {
  it("keeps the key being typed, its caret and focus while the balances and the app's view change", async () => {
    const fake = sandboxBackend();
    const { session } = await mountScreen(Connect, fake);
    const key = screen.getByTestId<HTMLInputElement>("api-key");
    await userEvent.type(key, "svc/public/abcdef");
    key.setSelectionRange(4, 4);
    session.holdings.balances = balancesView("2 000 000,00 NOK");
    session.appLock.app = appView({ notice: "changed meanwhile" });
    await tick();
    expect(document.activeElement).toBe(key);
    expect(key.value).toBe("svc/public/abcdef");
    expect([key.selectionStart, key.selectionEnd]).toEqual([4, 4]);
  });

  it("keeps focus on a button while the background updates", async () => {
    const fake = sandboxBackend();
    const { session } = await mountScreen(Connect, fake);
    const save = screen.getByTestId("save-key");
    save.focus();
    session.holdings.balances = balancesView("2 000 000,00 NOK");
    session.appLock.app = appView();
    await tick();
    expect(document.activeElement).toBe(save);
  });

  it("saves the key with what the user said it may do, and forgets the secret", async () => {
    const fake = sandboxBackend({ setApiKey: () => appView() });
    await mountScreen(Connect, fake);
    await userEvent.type(screen.getByTestId("api-key"), "svc/public/k");
    await userEvent.type(screen.getByTestId("api-secret"), "svc/apisecret/s");
    await userEvent.selectOptions(screen.getByTestId("key-may-trade"), "yes");
    await fireEvent.click(screen.getByTestId("save-key"));
    await tick();
    expect(fake.callsOf("setApiKey")).toEqual([
      { key: "svc/public/k", secret: "svc/apisecret/s", mayTrade: true, mayWithdraw: undefined },
    ]);
    expect(screen.getByTestId<HTMLInputElement>("api-secret").value).toBe("");
    expect(await screen.findByTestId("message-ok")).toHaveProperty("textContent", expect.stringContaining("Saved"));
  });

  it("says before a new key is saved that unknown requests are checked only with their own accounts' key", async () => {
    await mountScreen(Connect, sandboxBackend());
    expect(screen.queryByTestId("key-unknowns-warning")).toBeNull();
    const fake = sandboxBackend({ unknowns: () => ({ unresolved: 1, entries: [] }) });
    document.body.innerHTML = "";
    await mountScreen(Connect, fake);
    expect(await screen.findByTestId("key-unknowns-warning")).toBeTruthy();
  });

  it("offers balances alone when the exchange refuses the scopes asked for", async () => {
    const fake = sandboxBackend({
      connectOauth: ({ scopes }) => {
        if (scopes.length > 1) throw { code: "scopeRefused", message: "refused" };
        return appView();
      },
    });
    await mountScreen(Connect, fake);
    await fireEvent.click(screen.getByTestId("scope-api:trades:read"));
    await fireEvent.click(screen.getByTestId("connect-oauth"));
    await fireEvent.click(await screen.findByTestId("connect-oauth-read-only"));
    await tick();
    expect(fake.callsOf("connectOauth")).toEqual([
      { scopes: ["api:accounts:bitcoin:read", "api:trades:read"] },
      { scopes: ["api:accounts:bitcoin:read"] },
    ]);
  });

  it("offers only the API key for an exchange that has issued Nordlys no client id", async () => {
    const fake = sandboxBackend();
    const { session } = await mountScreen(Connect, fake);
    expect(screen.getByTestId("connect-oauth")).toBeTruthy();
    const base = appView().profile;
    const bare = { ...base, id: "exchange", kind: "exchange" as const, preset: "bare-bitcoin", operator: "bb" };
    session.appLock.app = appView({ profile: bare, profiles: [base, bare] });
    await tick();
    expect(screen.getByTestId("oauth-unavailable")).toBeTruthy();
    expect(screen.queryByTestId("connect-oauth")).toBeNull();
    expect(screen.getByTestId<HTMLInputElement>("api-key").placeholder).toBe("bb/public/…");
    session.appLock.app = appView({ profile: { ...bare, clientId: "nordlys" }, profiles: [base, bare] });
    await tick();
    expect(screen.getByTestId("connect-oauth")).toBeTruthy();
  });
});
