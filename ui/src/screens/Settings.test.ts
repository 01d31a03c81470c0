import { screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { appView } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import Settings from "./Settings.svelte";

describe("Settings", () => {
  it("switches the language, then the unit right after, while the first is still being applied", async () => {
    const fake = sandboxBackend({
      setLanguage: ({ language }) => appView({ language: language ?? "en", languageSetting: language }),
      setUnit: ({ unit }) => appView({ language: "nb", languageSetting: "nb", unit }),
    });
    await mountScreen(Settings, fake);
    await userEvent.selectOptions(screen.getByTestId("language"), "nb");
    await userEvent.selectOptions(screen.getByTestId("unit"), "sats");
    await vi.waitFor(() => expect(fake.callsOf("setUnit")).toHaveLength(1));
    expect(fake.callsOf("setLanguage")).toEqual([{ language: "nb" }]);
    expect(fake.callsOf("setUnit")).toEqual([{ unit: "sats" }]);
    expect(screen.getByTestId<HTMLSelectElement>("unit").value).toBe("sats");
  });
});
