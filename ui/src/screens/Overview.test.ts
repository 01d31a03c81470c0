import { screen } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import { balancesView } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import Overview from "./Overview.svelte";

describe("Overview: the total", () => {
  it("counts the NOK account with the bitcoin, and shows each part", async () => {
    const fake = sandboxBackend({ balances: () => balancesView() });
    await mountScreen(Overview, fake);
    await vi.waitFor(() => screen.getByTestId("grand-total-nok"));
    expect(screen.getByTestId("grand-total-nok").textContent).toBe("610 000,00 NOK");
    expect(screen.getByTestId("total-btc").textContent).toBe("0.60000000 BTC");
  });

  it("without a readable NOK account shows the bitcoin alone, not a total that leaves it out", async () => {
    const fake = sandboxBackend({
      balances: () => ({
        ...balancesView(),
        grandTotalNok: null,
        fiat: null,
        fiatReason: "needs a key",
      }),
    });
    await mountScreen(Overview, fake);
    await vi.waitFor(() => screen.getByTestId("total-btc"));
    expect(screen.queryByTestId("grand-total-nok")).toBeNull();
    expect(screen.getByTestId("fiat-unavailable").textContent).toBe("needs a key");
  });
});
