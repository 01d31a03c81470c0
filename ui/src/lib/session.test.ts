import { describe, expect, it, vi } from "vitest";
import { appView, balancesView } from "../test/fixtures";
import { sandboxBackend } from "../test/harness";
import { Session } from "./session.svelte";

describe("Session", () => {
  it("reads the balances again when the backend says they changed, and a hidden window only once shown", async () => {
    let price = "1";
    const fake = sandboxBackend({ balances: () => balancesView(price) });
    const session = new Session(fake.backend);
    await session.start();
    price = "2";
    fake.emit("changed", "balances");
    await vi.waitFor(() => expect(session.holdings.balances?.price?.text).toBe("2"));

    const hidden = vi.spyOn(document, "visibilityState", "get").mockReturnValue("hidden");
    price = "3";
    fake.emit("changed", "balances");
    await new Promise((r) => setTimeout(r, 10));
    expect(session.holdings.balances?.price?.text).toBe("2");
    hidden.mockReturnValue("visible");
    document.dispatchEvent(new Event("visibilitychange"));
    await vi.waitFor(() => expect(session.holdings.balances?.price?.text).toBe("3"));
    hidden.mockRestore();
  });

  it("runs actions one after another, and a change of language reads the formatted figures again", async () => {
    const fake = sandboxBackend({ setLanguage: () => appView({ language: "nb" }) });
    const session = new Session(fake.backend);
    await session.start();
    const quotesBefore = fake.callsOf("quote").length;
    const told: string[] = [];
    session.onChange((c) => told.push(c));
    await Promise.all([
      session.act(() => fake.backend.setLanguage({ language: "nb" })),
      session.act(() => fake.backend.setLanguage({ language: "nb" })),
    ]);
    expect(document.documentElement.lang).toBe("nb");
    expect(fake.callsOf("quote").length).toBeGreaterThan(quotesBefore);
    // Once: the second action found the language already changed.
    expect(told).toEqual(["reformatted"]);
  });

  it("says once what stops the balances, and takes it back when they read again", async () => {
    let down = true;
    const fake = sandboxBackend({
      balances: () => {
        if (down) throw { code: "network", message: "The exchange cannot be reached." };
        return balancesView();
      },
    });
    const session = new Session(fake.backend);
    await session.start();
    expect(session.router.message).toEqual({ kind: "error", text: "The exchange cannot be reached." });
    down = false;
    await session.holdings.load();
    expect(session.router.message).toBeNull();
  });
  it("draws the chart again as prices move once a pixel of it could have moved: 30 s for an hour, 10 min for a month", async () => {
    let now = 1_000_000;
    const clock = vi.spyOn(Date, "now").mockImplementation(() => now);
    const fake = sandboxBackend();
    const session = new Session(fake.backend);
    session.market.width = 1000;
    await session.start();
    await vi.waitFor(() => expect(session.market.priceChart).not.toBeNull());
    const drawn = () => fake.callsOf("priceChart").length;
    const before = drawn();
    const priceMovesAt = async (seconds: number) => {
      now = 1_000_000 + seconds * 1000;
      fake.emit("changed", "price");
      await new Promise((r) => setTimeout(r, 10));
    };

    // A month, the first range: 43 min a pixel, drawn again after 10 min.
    await priceMovesAt(60);
    await priceMovesAt(599);
    expect(drawn()).toBe(before);
    await priceMovesAt(600);
    expect(drawn()).toBe(before + 1);

    // An hour: 3.6 s a pixel, drawn again after 30 s.
    session.market.showRange("1h");
    expect(drawn()).toBe(before + 2);
    await priceMovesAt(629);
    expect(drawn()).toBe(before + 2);
    await priceMovesAt(630);
    expect(drawn()).toBe(before + 3);
    clock.mockRestore();
  });
  it("draws the charts again for a new width once resizing pauses, and tells the screens", async () => {
    const fake = sandboxBackend();
    const session = new Session(fake.backend);
    session.market.width = 700;
    await session.start();
    await vi.waitFor(() => expect(session.market.priceChart).not.toBeNull());
    const told: string[] = [];
    session.onChange((c) => told.push(c));
    const widths = () => fake.callsOf("priceChart").map((c) => c.width);
    const before = widths().length;
    expect(widths().at(-1)).toBe(700);

    // Dragged across several widths: drawn once, for the last.
    for (const width of [900, 1200, 1400.4]) session.market.width = width;
    await new Promise((r) => setTimeout(r, 400));
    expect(widths().slice(before)).toEqual([1400]);
    expect(told).toEqual(["resized"]);

    // The same width in whole pixels: nothing to draw.
    session.market.width = 1399.8;
    await new Promise((r) => setTimeout(r, 400));
    expect(widths().slice(before)).toEqual([1400]);
    expect(told).toEqual(["resized"]);
  });
  it("values the holdings again once a minute as prices move, and at once when they change", async () => {
    let now = 1_000_000;
    const clock = vi.spyOn(Date, "now").mockImplementation(() => now);
    const fake = sandboxBackend();
    const session = new Session(fake.backend);
    await session.start();
    const read = () => fake.callsOf("balances").length;
    const before = read();
    const told = async (seconds: number, change: "price" | "balances") => {
      now = 1_000_000 + seconds * 1000;
      fake.emit("changed", change);
      await new Promise((r) => setTimeout(r, 10));
    };

    for (const seconds of [5, 30, 59]) await told(seconds, "price");
    expect(read()).toBe(before);
    await told(60, "price");
    expect(read()).toBe(before + 1);
    await told(65, "balances");
    expect(read()).toBe(before + 2);
    await told(120, "price");
    expect(read()).toBe(before + 2);
    await told(125, "price");
    expect(read()).toBe(before + 3);
    clock.mockRestore();
  });
});
