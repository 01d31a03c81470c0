import { fireEvent, screen } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import type { AlertArgs, AlertView } from "../bindings";
import { nok } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import PriceAlerts from "./PriceAlerts.svelte";

describe("PriceAlerts", () => {
  it("says each problem at its field and keeps nothing, then lists the alert in words and removes it", async () => {
    let kept: AlertView[] = [];
    const fake = sandboxBackend({
      saveAlert: (a: AlertArgs) => {
        const problems = [];
        if (!(Number(a.level) > 0)) problems.push({ field: "level" as const, message: "The level: enter an amount" });
        if (a.hysteresis && !(Number(a.hysteresis) > 0 && Number(a.hysteresis) <= 10))
          problems.push({ field: "hysteresis" as const, message: "The hysteresis is more than 0 %" });
        if (problems.length === 0)
          kept = [
            {
              id: 7,
              watched: a.watched,
              crossing: a.crossing,
              said: `The bank price to buy for NOK 5,000.00 falls below NOK ${a.level}`,
              level: a.level,
              hysteresis: a.hysteresis || "0.5",
              waiting: false,
            },
          ];
        return {
          problems,
          alerts: {
            usualAmount: nok("NOK 5,000.00"),
            usualAmountTyped: "5000",
            alerts: kept,
            openOrdersUnavailable: null,
          },
        };
      },
      removeAlert: () => {
        kept = [];
        return {
          usualAmount: nok("NOK 5,000.00"),
          usualAmountTyped: "5000",
          alerts: kept,
          openOrdersUnavailable: null,
        };
      },
    });
    await mountScreen(PriceAlerts, fake);
    await screen.findByTestId("alert-form");
    await fireEvent.change(screen.getByTestId("alert-watched"), { target: { value: "bankBuy" } });
    await fireEvent.change(screen.getByTestId("alert-crossing"), { target: { value: "fallsBelow" } });
    await fireEvent.input(screen.getByTestId("alert-level"), { target: { value: "-1" } });
    await fireEvent.input(screen.getByTestId("alert-hysteresis"), { target: { value: "11" } });
    await fireEvent.click(screen.getByTestId("alert-save"));
    await vi.waitFor(() => expect(screen.getByTestId("alert-level-error").textContent).toContain("level"));
    expect(screen.getByTestId("alert-hysteresis-error").textContent).toContain("hysteresis");
    expect(screen.queryAllByTestId("alert")).toHaveLength(0);
    // What was typed stays to be corrected.
    expect(screen.getByTestId<HTMLInputElement>("alert-level").value).toBe("-1");

    await fireEvent.input(screen.getByTestId("alert-level"), { target: { value: "900000" } });
    await fireEvent.input(screen.getByTestId("alert-hysteresis"), { target: { value: "" } });
    await fireEvent.click(screen.getByTestId("alert-save"));
    await vi.waitFor(() => expect(screen.getAllByTestId("alert")).toHaveLength(1));
    expect(screen.getByTestId("alert").textContent).toContain("falls below NOK 900000");
    expect(screen.queryByTestId("alert-level-error")).toBeNull();
    expect(fake.callsOf("saveAlert").at(-1)).toEqual({
      id: null,
      watched: "bankBuy",
      crossing: "fallsBelow",
      level: "900000",
      hysteresis: "",
    });
    await fireEvent.click(screen.getByTestId("alert-remove"));
    await vi.waitFor(() => expect(screen.queryAllByTestId("alert")).toHaveLength(0));
    expect(fake.callsOf("removeAlert")).toEqual([{ id: 7 }]);
  });

  it("says what is wrong with the usual amount at its field", async () => {
    const fake = sandboxBackend({
      setUsualAmount: () => {
        throw { code: "invalidInput", message: "The usual amount: the amount must be more than zero" };
      },
    });
    await mountScreen(PriceAlerts, fake);
    const usual = await screen.findByTestId<HTMLInputElement>("usual-amount");
    expect(usual.value).toBe("5000");
    await fireEvent.input(usual, { target: { value: "0" } });
    await fireEvent.click(screen.getByTestId("usual-amount-save"));
    await vi.waitFor(() => expect(screen.getByTestId("usual-amount-error").textContent).toContain("more than zero"));
  });

  it("asks a percentage for an alert on open orders, and says why a connection without a key cannot have one", async () => {
    const fake = sandboxBackend({
      saveAlert: () => ({
        problems: [],
        alerts: { usualAmount: nok("NOK 5,000.00"), usualAmountTyped: "5000", alerts: [], openOrdersUnavailable: null },
      }),
    });
    await mountScreen(PriceAlerts, fake);
    await screen.findByTestId("alert-form");
    await fireEvent.change(screen.getByTestId("alert-watched"), { target: { value: "openOrder" } });
    expect(screen.queryByTestId("alert-crossing")).toBeNull();
    expect(screen.getByText("Within, % of the market")).toBeTruthy();
    await fireEvent.input(screen.getByTestId("alert-level"), { target: { value: "2" } });
    await fireEvent.click(screen.getByTestId("alert-save"));
    await vi.waitFor(() => expect(fake.callsOf("saveAlert")).toHaveLength(1));
    expect(fake.callsOf("saveAlert")[0]).toMatchObject({ watched: "openOrder", level: "2" });

    const oauth = sandboxBackend({
      alerts: () => ({
        usualAmount: nok("NOK 5,000.00"),
        usualAmountTyped: "5000",
        alerts: [],
        openOrdersUnavailable: "Alerts on open orders need an API key.",
      }),
    });
    const other = await mountScreen(PriceAlerts, oauth);
    await vi.waitFor(() => other.getByTestId("open-orders-unavailable"));
    const option = other.container.querySelector<HTMLOptionElement>("option[value=openOrder]");
    expect(option?.disabled).toBe(true);
  });
});
