import { fireEvent, screen } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import type { PlanArgs, PlansView } from "../bindings";
import { mountScreen, sandboxBackend } from "../test/harness";
import RecurringBuys from "./RecurringBuys.svelte";
import { btc, nok, price } from "../test/fixtures";

describe("RecurringBuys", () => {
  it("says a wrong field where it is and keeps nothing, then lists the plan with its next run and pauses it", async () => {
    let kept: PlansView = { plans: [] };
    const plan = (a: PlanArgs, paused: boolean) => ({
      id: 3,
      said: `Buy for NOK ${a.amount} every Monday at ${a.at}`,
      paused,
      nextRun: paused ? null : "30.11.2026 07:00",
      runs: [
        {
          slot: "23.11.2026 07:00",
          state: "unknown" as const,
          price: null,
          btc: null,
          evidence: "Journal entry 4",
          journalId: 4,
          rungs: [],
        },
      ],
      bought: btc("0.00000000 BTC", "0"),
      cost: nok("NOK 0.00", "0"),
      averagePrice: null,
      result: null,
      resultNegative: false,
      limitFillsMayBeMissing: false,
      form: { ...a, id: 3 },
    });
    const fake = sandboxBackend({
      savePlan: (a: PlanArgs) => {
        if (!(Number(a.amount) > 0))
          return {
            problems: [{ field: "amount" as const, message: "The amount must be more than 0 NOK" }],
            warning: null,
            plans: kept,
          };
        kept = { plans: [plan(a, false)] };
        return { problems: [], warning: "Saved, but this is more than the NOK 100.00 available now", plans: kept };
      },
      pausePlan: () => {
        kept = { plans: [plan(kept.plans[0].form, true)] };
        return kept;
      },
    });
    await mountScreen(RecurringBuys, fake);
    await screen.findByTestId("plan-form");
    expect(screen.getByTestId("plans-honest").textContent).toContain("only while Nordlys");
    await fireEvent.input(screen.getByTestId("plan-amount"), { target: { value: "0" } });
    await fireEvent.click(screen.getByTestId("plan-save"));
    await vi.waitFor(() => expect(screen.getByTestId("plan-amount-error").textContent).toContain("more than 0"));
    expect(screen.queryAllByTestId("plan")).toHaveLength(0);

    await fireEvent.input(screen.getByTestId("plan-amount"), { target: { value: "500" } });
    await fireEvent.click(screen.getByTestId("plan-save"));
    await vi.waitFor(() => expect(screen.getAllByTestId("plan")).toHaveLength(1));
    expect(fake.callsOf("savePlan").at(-1)).toEqual({
      id: null,
      kind: "buy",
      amount: "500",
      rungs: "5",
      step: "1",
      account: "",
      every: "week",
      on: "mon",
      at: "07:00",
      maxPrice: "",
      missed: "skip",
    });
    expect(screen.getByTestId("plan-next").textContent).toBe("30.11.2026 07:00");
    expect(screen.getByTestId("plan-warning").textContent).toContain("available now");
    expect(screen.getByTestId("plan-run").dataset.state).toBe("unknown");

    await fireEvent.click(screen.getByTestId("plan-pause"));
    await vi.waitFor(() => expect(screen.getByTestId("plan-paused")).toBeTruthy());
    expect(screen.queryByTestId("plan-next")).toBeNull();
    expect(screen.getByTestId("plan-resume")).toBeTruthy();
  });

  it("makes a ladder with its rungs and step, says a wrong rung count at its field, and shows each rung's limit price", async () => {
    let kept: PlansView = { plans: [] };
    const fake = sandboxBackend({
      savePlan: (a: PlanArgs) => {
        if (!(Number(a.rungs) >= 2 && Number(a.rungs) <= 50))
          return {
            problems: [{ field: "rungs" as const, message: "A ladder has 2 to 50 rungs" }],
            warning: null,
            plans: kept,
          };
        kept = {
          plans: [
            {
              id: 4,
              said: `Buy for NOK ${a.amount} every Monday at ${a.at}, as ${a.rungs} limit buys ${a.step} % apart below the ask`,
              paused: false,
              nextRun: "30.11.2026 07:00",
              runs: [
                {
                  slot: "23.11.2026 07:00",
                  state: "placed" as const,
                  price: null,
                  btc: null,
                  evidence: "2 limit buys placed below the ask",
                  journalId: 7,
                  rungs: [
                    {
                      index: 1,
                      price: price("NOK 990 000", "990000"),
                      state: "placed" as const,
                      evidence: "Order or_1 (journal entry 7)",
                    },
                    {
                      index: 2,
                      price: price("NOK 980 000", "980000"),
                      state: "placed" as const,
                      evidence: "Order or_2 (journal entry 8)",
                    },
                  ],
                },
              ],
              bought: btc("0.00000000 BTC", "0"),
              cost: nok("NOK 0.00", "0"),
              averagePrice: null,
              result: null,
              resultNegative: false,
              limitFillsMayBeMissing: true,
              form: { ...a, id: 4 },
            },
          ],
        };
        return { problems: [], warning: null, plans: kept };
      },
    });
    await mountScreen(RecurringBuys, fake);
    await screen.findByTestId("plan-form");
    expect(screen.queryByTestId("plan-rungs-count")).toBeNull();
    await fireEvent.change(screen.getByTestId("plan-kind"), { target: { value: "ladder" } });
    expect(screen.getByTestId("plan-ladder-note").textContent).toContain("cancels");
    await fireEvent.input(screen.getByTestId("plan-amount"), { target: { value: "2000" } });
    await fireEvent.input(screen.getByTestId("plan-rungs-count"), { target: { value: "60" } });
    await fireEvent.click(screen.getByTestId("plan-save"));
    await vi.waitFor(() => expect(screen.getByTestId("plan-rungs-error").textContent).toContain("2 to 50"));
    expect(screen.queryAllByTestId("plan")).toHaveLength(0);

    await fireEvent.input(screen.getByTestId("plan-rungs-count"), { target: { value: "2" } });
    await fireEvent.input(screen.getByTestId("plan-step"), { target: { value: "1" } });
    await fireEvent.change(await screen.findByTestId("plan-account"), { target: { value: "a2" } });
    await fireEvent.click(screen.getByTestId("plan-save"));
    await vi.waitFor(() => expect(screen.getAllByTestId("plan")).toHaveLength(1));
    expect(fake.callsOf("savePlan").at(-1)).toMatchObject({
      kind: "ladder",
      amount: "2000",
      rungs: "2",
      step: "1",
      account: "a2",
    });
    const rungs = screen.getAllByTestId("plan-rung");
    expect(rungs).toHaveLength(2);
    expect(rungs[1].textContent).toContain("NOK 980 000");
    expect(rungs[1].dataset.state).toBe("placed");
    expect(screen.getByTestId("plan-limit-fills").textContent).toContain("history names their order");
  });

  it("cancelled in the native dialog, keeps no plan and keeps the form as typed", async () => {
    const fake = sandboxBackend({
      savePlan: () => {
        throw { code: "notConfirmed", message: "Nothing was sent: the confirmation was cancelled." };
      },
    });
    await mountScreen(RecurringBuys, fake);
    await screen.findByTestId("plan-form");
    await fireEvent.input(screen.getByTestId("plan-amount"), { target: { value: "500" } });
    await fireEvent.click(screen.getByTestId("plan-save"));
    await vi.waitFor(() => expect(screen.getByTestId("plans-error").textContent).toContain("Nothing was sent"));
    expect(screen.queryAllByTestId("plan")).toHaveLength(0);
    expect(screen.getByTestId<HTMLInputElement>("plan-amount").value).toBe("500");
  });
});
