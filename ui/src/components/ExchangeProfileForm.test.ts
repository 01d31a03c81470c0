import { fireEvent, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { appView } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import ExchangeProfileForm from "./ExchangeProfileForm.svelte";

const noProblems = { baseUrl: null, oauthBaseUrl: null, operator: null, clientId: null, scopes: null };

describe("ExchangeProfileForm", () => {
  it("marks each wrong field, saves nothing, keeps what was typed, then saves once corrected", async () => {
    const fake = sandboxBackend({
      checkExchangeProfile: (args) => ({
        ...noProblems,
        baseUrl: args.baseUrl.endsWith("/v1") ? "without a path" : null,
        clientId: args.clientId ? null : "required",
      }),
      saveExchangeProfile: () => appView(),
    });
    const { session } = await mountScreen(ExchangeProfileForm, fake);
    await userEvent.type(screen.getByTestId("exchange-base-url"), "https://x.test/v1");
    await fireEvent.submit(screen.getByTestId("exchange-profile"));
    await vi.waitFor(() => screen.getByTestId("exchange-base-url-error"));
    expect(screen.getByTestId("exchange-client-id-error").textContent).toBe("required");
    expect(screen.queryByTestId("exchange-operator-error")).toBeNull();
    expect(fake.callsOf("saveExchangeProfile")).toEqual([]);
    expect(session.router.message?.kind).toBe("error");
    expect(screen.getByTestId<HTMLInputElement>("exchange-base-url").value).toBe("https://x.test/v1");

    const base = screen.getByTestId<HTMLInputElement>("exchange-base-url");
    await userEvent.clear(base);
    await userEvent.type(base, "https://x.test");
    await userEvent.type(screen.getByTestId("exchange-client-id"), "nordlys");
    await fireEvent.submit(screen.getByTestId("exchange-profile"));
    await vi.waitFor(() => expect(fake.callsOf("saveExchangeProfile")).toHaveLength(1));
    expect(fake.callsOf("saveExchangeProfile")[0]).toMatchObject({ baseUrl: "https://x.test", clientId: "nordlys" });
    await vi.waitFor(() => expect(screen.queryByTestId("exchange-base-url-error")).toBeNull());
  });

  it("fills every field from the exchange picked by name, says who runs it, and saves it without a client id", async () => {
    const fake = sandboxBackend({ checkExchangeProfile: () => noProblems, saveExchangeProfile: () => appView() });
    await mountScreen(ExchangeProfileForm, fake);
    await fireEvent.click(screen.getByTestId("preset-bare-bitcoin"));
    expect(screen.getByTestId("preset-operator").textContent).toContain("927 393 204");
    expect(screen.getByTestId("preset-key-only")).toBeTruthy();
    // The developer details are folded away once an exchange is picked.
    expect(screen.getByTestId<HTMLDetailsElement>("exchange-by-hand").open).toBe(false);
    await fireEvent.submit(screen.getByTestId("exchange-profile"));
    await vi.waitFor(() => expect(fake.callsOf("saveExchangeProfile")).toHaveLength(1));
    expect(fake.callsOf("saveExchangeProfile")[0]).toMatchObject({
      baseUrl: "https://api.bb.no",
      oauthBaseUrl: "https://barebitcoin.no",
      operator: "bb",
      clientId: "",
    });
  });
});
