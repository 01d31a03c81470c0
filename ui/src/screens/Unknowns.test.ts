import { fireEvent, screen } from "@testing-library/svelte";
import { tick } from "svelte";
import { describe, expect, it, vi } from "vitest";
import type { UnknownsView } from "../bindings";
import { mountScreen, sandboxBackend } from "../test/harness";
import Unknowns from "./Unknowns.svelte";

function unknown(state: "unknown" | "notSent", checks: number): UnknownsView {
  const evidence = Array.from({ length: checks }, (_, i) => [
    { at: `10:0${i}`, read: "withdrawals", saw: "not listed" },
    { at: `10:0${i}`, read: "verdict", saw: "still unknown" },
  ]).flat();
  return {
    unresolved: state === "unknown" ? 1 : 0,
    entries: [
      {
        journalId: 7,
        kind: "withdrawal",
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

  it("keeps the evidence the user opened open while a new check arrives", async () => {
    const fake = sandboxBackend({ unknowns: () => unknown("unknown", 1) });
    const { session } = await mountScreen(Unknowns, fake);
    const details = await screen.findByTestId<HTMLDetailsElement>("unknown-evidence");
    details.open = true;
    session.unknowns = unknown("unknown", 3);
    await tick();
    expect(screen.getByTestId<HTMLDetailsElement>("unknown-evidence")).toBe(details);
    expect(details.open).toBe(true);
    expect(details.querySelectorAll("table")).toHaveLength(3);
  });
});
