import { fireEvent, screen } from "@testing-library/svelte";
import { tick } from "svelte";
import { describe, expect, it, vi } from "vitest";
import type { UnknownsView } from "../bindings";
import { mountScreen, sandboxBackend } from "../test/harness";
import Unknowns from "./Unknowns.svelte";

function unknown(
  state: "unknown" | "notSent",
  checks: number,
  kind: "order" | "withdrawal" = "withdrawal",
): UnknownsView {
  const evidence = Array.from({ length: checks }, (_, i) => [
    { at: `10:0${i}`, read: "withdrawals", saw: "not listed", endsCheck: false },
    { at: `10:0${i}`, read: "verdict", saw: "still unknown", endsCheck: true },
  ]).flat();
  return {
    unresolved: state === "unknown" ? 1 : 0,
    entries: [
      {
        journalId: 7,
        kind,
        state,
        sentAt: "09:59",
        summary: "0.001 BTC to bc1q…",
        open: state === "unknown",
        evidence,
      },
    ],
  };
}

describe("Unknowns", () => {
  it("asks twice before settling as not sent, and shows the exchange's refusal in place", async () => {
    const fake = sandboxBackend({
      unknowns: () => unknown("unknown", 2),
      settleUnknown: () => {
        throw { code: "declined", message: "The exchange lists it: it was sent." };
      },
    });
    await mountScreen(Unknowns, fake);
    await fireEvent.click(await screen.findByTestId("unknown-settle"));
    expect(fake.callsOf("settleUnknown")).toEqual([]);
    await fireEvent.click(screen.getByTestId("unknown-settle-confirm"));
    await vi.waitFor(() => screen.getByTestId("unknowns-error"));
    expect(fake.callsOf("settleUnknown")).toEqual([{ journalId: 7 }]);
    expect(screen.getByTestId("unknowns-error").textContent).toContain("it was sent");
    // Nothing stays armed after a refusal: a second try starts from the first question.
    expect(screen.queryByTestId("unknown-settle-confirm")).toBeNull();
  });

  it("settles an order the user sees placed, with its number when open, and offers it for orders only", async () => {
    const fake = sandboxBackend({
      unknowns: () => unknown("unknown", 1, "order"),
      settleUnknownPlaced: () => unknown("notSent", 1, "order"),
    });
    await mountScreen(Unknowns, fake);
    await fireEvent.click(await screen.findByTestId("unknown-settle-placed"));
    expect(screen.queryByTestId("unknown-settle-confirm")).toBeNull();
    await fireEvent.input(screen.getByTestId("unknown-order-id"), { target: { value: " or_42 " } });
    await fireEvent.click(screen.getByTestId("unknown-settle-placed-confirm"));
    await vi.waitFor(() => expect(fake.callsOf("settleUnknownPlaced")).toEqual([{ journalId: 7, orderId: "or_42" }]));
    expect(fake.callsOf("settleUnknown")).toEqual([]);
  });

  it("offers no 'placed' for a payment", async () => {
    const fake = sandboxBackend({ unknowns: () => unknown("unknown", 1) });
    await mountScreen(Unknowns, fake);
    await screen.findByTestId("unknown-settle");
    expect(screen.queryByTestId("unknown-settle-placed")).toBeNull();
  });

  it("keeps the evidence the user opened open while a new check arrives", async () => {
    const fake = sandboxBackend({ unknowns: () => unknown("unknown", 1) });
    const { session } = await mountScreen(Unknowns, fake);
    const details = await screen.findByTestId<HTMLDetailsElement>("unknown-evidence");
    details.open = true;
    session.doubts.unknowns = unknown("unknown", 3);
    await tick();
    expect(screen.getByTestId<HTMLDetailsElement>("unknown-evidence")).toBe(details);
    expect(details.open).toBe(true);
    expect(details.querySelectorAll("table")).toHaveLength(3);
  });
});
