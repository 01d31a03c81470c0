import { fireEvent, screen } from "@testing-library/svelte";
import { tick } from "svelte";
import { describe, expect, it } from "vitest";
import { mountScreen, sandboxBackend } from "../test/harness";
import LockControl from "./LockControl.svelte";

describe("LockControl", () => {
  it("Esc puts the password setup away, as Cancel does", async () => {
    const { session } = await mountScreen(LockControl, sandboxBackend());
    session.appLock.lockSetup = true;
    await tick();
    await fireEvent.keyDown(screen.getByTestId("new-password"), { key: "Escape" });
    await tick();
    expect(screen.queryByTestId("lock-setup")).toBeNull();
  });
});
