import { fireEvent, screen } from "@testing-library/svelte";
import { describe, expect, it, vi } from "vitest";
import { price } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import PriceChart from "./PriceChart.svelte";

const readout = [
  { time: "2026-11-01 13:00", price: price("NOK 950,000.00"), x: 0 },
  { time: "2026-11-02 13:00", price: price("NOK 990,000.00"), x: 0.5 },
  { time: "2026-11-24 07:03", price: price("NOK 1,015,051.37"), x: 1 },
];

describe("PriceChart", () => {
  it("opens on a month and reads the point under the arrow keys, with its time and price", async () => {
    const fake = sandboxBackend({
      priceChart: () => ({ svg: "<svg/>", samples: 1, daily: 2, readout, plotLeft: 0.1, plotRight: 0.9 }),
    });
    await mountScreen(PriceChart, fake);
    expect(fake.callsOf("priceChart")[0]?.range).toBe("30d");
    const chart = await vi.waitFor(() => screen.getByRole("slider"));
    expect(screen.getByTestId("chart-readout").textContent).toContain("arrow keys");
    await fireEvent.keyDown(chart, { key: "End" });
    expect(screen.getByTestId("chart-readout").textContent).toContain("NOK 1,015,051.37");
    await fireEvent.keyDown(chart, { key: "ArrowLeft" });
    await fireEvent.keyDown(chart, { key: "ArrowLeft" });
    await fireEvent.keyDown(chart, { key: "ArrowLeft" });
    expect(screen.getByTestId("chart-readout").textContent).toContain("2026-11-01 13:00 · NOK 950,000.00");
    expect(chart.getAttribute("aria-valuetext")).toBe("2026-11-01 13:00, NOK 950,000.00");
    await fireEvent.click(screen.getByTestId("chart-1h"));
    await vi.waitFor(() => expect(fake.callsOf("priceChart").at(-1)?.range).toBe("1h"));
  });
});
