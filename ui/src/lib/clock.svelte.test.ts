import { flushSync, tick } from "svelte";
import { afterEach, expect, it, vi } from "vitest";
import { sandboxBackend } from "../test/harness";
import { Session } from "./session.svelte";

afterEach(() => {
  vi.useRealTimers();
});

it("the window's clock ticks each second only while something shown reads it", async () => {
  vi.useFakeTimers();
  const session = new Session(sandboxBackend().backend);
  expect(vi.getTimerCount()).toBe(0);

  const seen: number[] = [];
  const stop = $effect.root(() => {
    $effect(() => {
      seen.push(session.now);
    });
  });
  flushSync();
  expect(vi.getTimerCount()).toBe(1);
  for (let second = 0; second < 3; second++) {
    vi.advanceTimersByTime(1_000);
    flushSync();
  }
  expect(seen).toHaveLength(4);
  expect(seen[3] - seen[0]).toBe(3_000);

  // The countdown went (the invoice was paid, the screen changed): nothing wakes the window.
  stop();
  await tick();
  expect(vi.getTimerCount()).toBe(0);
});
