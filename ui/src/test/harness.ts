// Mounts a component inside a session over a scripted backend, as App would.
import { render } from "@testing-library/svelte";
import type { Component } from "svelte";
import { Session } from "../lib/session.svelte";
import { FakeBackend } from "./fake_backend";
import { appView, balancesView, nok, quoteView } from "./fixtures";
import Harness from "./Harness.svelte";

/** A backend answering what the sandbox profile shows; `script` replaces any command. */
export function sandboxBackend(script: ConstructorParameters<typeof FakeBackend>[0] = {}): FakeBackend {
  return new FakeBackend({
    appState: () => appView(),
    balances: () => balancesView(),
    quote: () => quoteView(),
    unknowns: () => ({ unresolved: 0, entries: [] }),
    storeSeal: () => "keyring",
    plans: () => ({ plans: [] }),
    alerts: () => ({
      usualAmount: nok("NOK 5,000.00"),
      usualAmountTyped: "5000",
      alerts: [],
      openOrdersUnavailable: null,
    }),
    priceChart: () => ({ svg: "<svg/>", samples: 3, daily: 0, readout: [], plotLeft: 0.1, plotRight: 0.9 }),
    volume: () => {
      throw { code: "network", message: "not in this test" };
    },
    ...script,
  });
}

/** `screen` in a started session over `fake`; resolves once the first loads have answered. */
export async function mountScreen(screen: Component, fake: FakeBackend) {
  const session = new Session(fake.backend);
  await session.start();
  const view = render(Harness, { props: { session, screen } });
  return { session, ...view };
}
