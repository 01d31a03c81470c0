import { fireEvent, render, screen } from "@testing-library/svelte";
import { tick } from "svelte";
import { describe, expect, it, vi } from "vitest";
import type { CardView, TaxRowView, TaxSyncView } from "../bindings";
import { appView, btc, nok, price } from "../test/fixtures";
import type { FakeBackend } from "../test/fake_backend";
import { mountScreen, sandboxBackend } from "../test/harness";
import Harness from "../test/Harness.svelte";
import Tax from "./Tax.svelte";

const TOTAL = 1000;

function row(i: number): TaxRowView {
  return {
    id: `r${i}`,
    time: "2025-01-01 10:00",
    account: "Main",
    accountDeleted: false,
    kind: "Buy",
    subType: "",
    btc: btc("0.001", "0.001"),
    nok: nok("1 000,00", "1000"),
    fee: null,
    rate: price("1 000 000", "1000000"),
    runningBalance: btc(String(i), String(i)),
    note: "",
    paymentInfo: "",
    payment:
      i === 1
        ? { kind: "transfer", networkId: "ab".repeat(32), destination: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }
        : { kind: "none" },
    isPayment: false,
    pending: false,
  };
}

function sync(state: TaxSyncView["state"], stored: number): TaxSyncView {
  return {
    state,
    requests: 3,
    received: stored,
    stored,
    malformed: 0,
    permille: 500,
    reached: "",
    message: "",
    failure: null,
  };
}

function taxBackend() {
  return sandboxBackend(taxBackendScript());
}

function taxBackendScript(): ConstructorParameters<typeof FakeBackend>[0] {
  return {
    taxSyncStatus: () => sync("running", 10),
    taxFacets: () => ({ years: [2025], accounts: [], types: [], subTypes: [], malformed: [], stored: TOTAL }),
    // As the backend does: the total comes with the first block only.
    taxRows: ({ filter, offset, limit }) => {
      const total = filter.year === null ? TOTAL : 10;
      const end = Math.min(total, offset + limit);
      const rows = Array.from({ length: Math.max(0, end - offset) }, (_, k) => row(offset + k));
      return { rows, offset, total: offset === 0 ? total : null };
    },
  };
}

describe("Tax", () => {
  it("offers to set aside a history of other accounts, then syncs a fresh one", async () => {
    const refused = { ...sync("failed", 0), message: "other accounts", failure: "otherAccounts" as const };
    const fake = sandboxBackend({
      ...taxBackendScript(),
      taxSyncStatus: () => refused,
      startTaxSync: () => sync("running", 0),
      setTaxHistoryAside: () => ({ identities: [], taxHistories: [] }),
    });
    await mountScreen(Tax, fake);
    const button = await vi.waitFor(() => screen.getByTestId("tax-set-aside"));
    await fireEvent.click(button);
    await vi.waitFor(() => expect(fake.callsOf("startTaxSync").length).toBe(1));
    expect(fake.callsOf("setTaxHistoryAside").length).toBe(1);
  });

  it("draws only the rows in view, and the rows further down once scrolled there", async () => {
    const fake = taxBackend();
    await mountScreen(Tax, fake);
    await vi.waitFor(() => expect(screen.getAllByTestId("tax-row").length).toBeGreaterThan(0));
    expect(screen.getAllByTestId("tax-row").length).toBeLessThan(50);
    const list = screen.getByTestId("tax-list");
    list.scrollTop = 900 * 30;
    await fireEvent.scroll(list);
    await vi.waitFor(() => expect(screen.getAllByTestId("tax-row")[0].dataset.index).toBe("896"));
    expect(fake.callsOf("taxRows").map((c) => c.offset)).toContain(800);
  });

  it("shows a transfer's transaction id and address, each whole in its title and copy button", async () => {
    await mountScreen(Tax, taxBackend());
    await vi.waitFor(() => screen.getAllByTestId("tax-network-id"));
    const id = screen.getByTestId("tax-network-id");
    expect(id.dataset.full).toBe("ab".repeat(32));
    expect(id.textContent).toBe("abababab…abab");
    expect(screen.getByTestId("tax-destination").dataset.full).toBe("bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq");
  });

  it("keeps the scroll position and the rows while the sync reports progress", async () => {
    const fake = taxBackend();
    await mountScreen(Tax, fake);
    await vi.waitFor(() => screen.getAllByTestId("tax-row"));
    const list = screen.getByTestId("tax-list");
    list.scrollTop = 300 * 30;
    await fireEvent.scroll(list);
    await vi.waitFor(() => expect(screen.getAllByTestId("tax-row")[0].dataset.index).toBe("296"));
    const shown = screen.getAllByTestId("tax-row")[0];
    fake.emit("taxSync", sync("running", 20));
    fake.emit("changed", "price");
    await tick();
    expect(list.scrollTop).toBe(300 * 30);
    expect(screen.getAllByTestId("tax-row")[0]).toBe(shown);
    expect(screen.getByTestId("tax-sync-counts").textContent).toContain("20");
  });

  it("a new filter starts the list at the top", async () => {
    const fake = taxBackend();
    await mountScreen(Tax, fake);
    await vi.waitFor(() => screen.getAllByTestId("tax-row"));
    const list = screen.getByTestId("tax-list");
    list.scrollTop = 300 * 30;
    await fireEvent.scroll(list);
    await fireEvent.change(screen.getByTestId("tax-year"), { target: { value: "2025" } });
    await vi.waitFor(() => expect(screen.getByTestId("tax-count").dataset.total).toBe("10"));
    expect(list.scrollTop).toBe(0);
    expect(screen.getAllByTestId("tax-row")[0].dataset.index).toBe("0");
  });
});

describe("Tax: a sync started as the screen opens", () => {
  it("reads the list again when the sync ends, though the status asked on arrival answered after the click", async () => {
    const fake = taxBackend();
    // The status asked on arrival answers late, saying no sync runs (it was asked before the click).
    let answer: (v: TaxSyncView) => void = () => {};
    fake.script.taxSyncStatus = () => new Promise<TaxSyncView>((r) => (answer = r));
    fake.script.startTaxSync = () => sync("running", 0);
    await mountScreen(Tax, fake);
    await fireEvent.click(screen.getByTestId("tax-sync"));
    answer(sync("idle", 0));
    // The arrival's own read of the list is done.
    await vi.waitFor(() => screen.getAllByTestId("tax-row"));
    await new Promise((r) => setTimeout(r, 20));
    const reads = fake.callsOf("taxRows").length;
    fake.emit("taxSync", sync("complete", 20));
    await vi.waitFor(() => expect(fake.callsOf("taxRows").length).toBeGreaterThan(reads));
  });
});

describe("Tax: coming back", () => {
  it("finds the list where the user left it after another screen was shown", async () => {
    const fake = taxBackend();
    const { session, unmount } = await mountScreen(Tax, fake);
    await vi.waitFor(() => screen.getAllByTestId("tax-row"));
    const list = screen.getByTestId("tax-list");
    list.scrollTop = 500 * 30;
    await fireEvent.scroll(list);
    await vi.waitFor(() => expect(screen.getAllByTestId("tax-row")[0].dataset.index).toBe("496"));
    unmount();
    const reads = fake.callsOf("taxRows").length;
    render(Harness, { props: { session, screen: Tax } });
    // Arriving reads the list again; once it has, the list is still where it was.
    await vi.waitFor(() => expect(fake.callsOf("taxRows").length).toBeGreaterThan(reads));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByTestId("tax-list").scrollTop).toBe(500 * 30);
    expect(screen.getAllByTestId("tax-row")[0].dataset.index).toBe("496");
  });
});

describe("Tax: the year-end rate", () => {
  it("uses the rate typed for its year, says what was refused, and goes back to the transactions' rate", async () => {
    const year = (rate: string, entered: boolean) => ({
      years: [
        {
          year: 2025,
          complete: true,
          rate: price(rate),
          rateSource: entered ? "your rate" : "the transactions' rate",
          entered,
          accounts: [],
          totalBtc: btc("0.1 BTC", "0.1"),
          totalNok: nok("100 000 kr", "100000"),
          notComputable: null,
        },
      ],
    });
    const fake = taxBackend();
    // The rate kept by the backend: the report is read again after each choice.
    let kept: string | null = null;
    fake.script.yearEndReport = () => (kept ? year(kept, true) : year("900 000", false));
    fake.script.setYearEndChoice = ({ kind, nokPerBtc }) => {
      if (nokPerBtc === "abc") throw { code: "invalidInput", message: "A rate is a number of NOK per BTC." };
      kept = kind === "nokPerBtc" ? nokPerBtc : null;
      return {};
    };
    await mountScreen(Tax, fake);
    await fireEvent.click(screen.getByTestId("tax-section-yearEnd"));
    const input = await screen.findByTestId<HTMLInputElement>("year-end-rate-input");
    await fireEvent.input(input, { target: { value: "abc" } });
    await fireEvent.click(screen.getByTestId("year-end-rate-save"));
    await vi.waitFor(() => expect(screen.getByTestId("year-end-rate-error").textContent).toContain("NOK per BTC"));
    expect(screen.queryByTestId("tax-error")).toBeNull();
    // What was typed stays to be corrected.
    expect(screen.getByTestId<HTMLInputElement>("year-end-rate-input").value).toBe("abc");
    // The transactions' rate is said to be an estimate, not what the card files.
    expect(screen.getByTestId("year-end-estimate")).toBeTruthy();
    await fireEvent.input(input, { target: { value: "950000" } });
    await fireEvent.click(screen.getByTestId("year-end-rate-save"));
    await vi.waitFor(() => expect(screen.getByTestId("year-end-rate").textContent).toBe("950000"));
    expect(screen.queryByTestId("year-end-estimate")).toBeNull();
    expect(screen.queryByTestId("year-end-rate-error")).toBeNull();
    expect(screen.getByTestId<HTMLInputElement>("year-end-rate-input").value).toBe("");
    await fireEvent.click(screen.getByText("Use the transactions' rate"));
    await vi.waitFor(() => expect(screen.getByTestId("year-end-rate").textContent).toBe("900 000"));
    const rest = { usdPerBtc: "", nokPerUsd: "" };
    expect(fake.callsOf("setYearEndChoice")).toEqual([
      { year: 2025, kind: "nokPerBtc", nokPerBtc: "abc", ...rest },
      { year: 2025, kind: "nokPerBtc", nokPerBtc: "950000", ...rest },
      { year: 2025, kind: "none", nokPerBtc: "", ...rest },
    ]);
  });
});

describe("Tax: gains", () => {
  it("says a year is not computable once, with no figure beside it, as the card does", async () => {
    const fake = taxBackend();
    fake.script.gainsReport = () => ({
      method: "FIFO",
      years: [
        {
          year: 2025,
          disposals: 3,
          proceeds: nok("not computable: 2 disposals use bitcoin whose cost is not known"),
          cost: nok("not computable: 2 disposals use bitcoin whose cost is not known"),
          gains: nok("not computable: 2 disposals use bitcoin whose cost is not known"),
          losses: nok("not computable: 2 disposals use bitcoin whose cost is not known"),
          net: nok("not computable: 2 disposals use bitcoin whose cost is not known"),
          notComputable: "not computable: 2 disposals use bitcoin whose cost is not known",
        },
        {
          year: 2024,
          disposals: 1,
          proceeds: nok("NOK 10.00"),
          cost: nok("NOK 5.00"),
          gains: nok("NOK 5.00"),
          losses: nok("NOK 0.00"),
          net: nok("NOK 5.00"),
          notComputable: null,
        },
      ],
      disposals: [],
      notes: [],
    });
    await mountScreen(Tax, fake);
    await fireEvent.click(screen.getByTestId("tax-section-gains"));
    const said = await screen.findAllByTestId("gains-not-computable");
    expect(said).toHaveLength(1);
    expect(said[0].closest("tr")?.getAttribute("data-year")).toBe("2025");
    expect(said[0].closest("tr")?.textContent).not.toContain("NOK");
    expect(screen.getByTestId("gains-net").textContent).toBe("NOK 5.00");
  });
});

describe("Tax: holdings over time", () => {
  const point = (time: string, total: string, x: number, realised = "") => ({
    time,
    total: btc(total),
    accounts: [`Savings: ${total}`, "Spending: 0.1 BTC"],
    value: `Worth ${total} at a rate`,
    realised,
    x,
  });
  const drawn = {
    hidden: false,
    svg: "<svg/>",
    method: "FIFO",
    readout: [
      point("2024-01-10 11:00", "0.5 BTC", 0),
      point("2024-03-20 11:00", "0.55 BTC", 0.5, "gain realised kr 40 000,00"),
      point("2024-09-15 12:00", "0.45 BTC", 1),
    ],
    plotLeft: 0.1,
    plotRight: 0.9,
    pending: "",
  };

  it("names the latest holding, reads earlier points with the keys, and hides everything in privacy mode", async () => {
    const fake = taxBackend();
    fake.script.holdingsChart = () => drawn;
    const { session } = await mountScreen(Tax, fake);
    await fireEvent.click(screen.getByTestId("tax-section-holdings"));
    const readout = await screen.findByTestId("holdings-readout");
    expect(readout.textContent).toContain("2024-09-15 12:00");
    expect(screen.getByTestId("holdings-total").textContent).toBe("0.45 BTC");
    expect(screen.getByTestId("holdings-chart").getAttribute("src")).toContain("data:image/svg+xml");
    expect(fake.callsOf("holdingsChart")[0].height).toBe(440);
    const slider = screen.getByRole("slider");
    await fireEvent.keyDown(slider, { key: "ArrowLeft" });
    expect(screen.getByTestId("holdings-total").textContent).toBe("0.55 BTC");
    expect(readout.textContent).toContain("gain realised kr 40 000,00");
    expect(readout.textContent).toContain("Spending: 0.1 BTC");
    expect(slider.getAttribute("aria-valuetext")).toBe("2024-03-20 11:00, 0.55 BTC, Worth 0.55 BTC at a rate");

    fake.script.holdingsChart = () => ({ ...drawn, hidden: true, svg: "", readout: [] });
    fake.script.setPrivacy = () => ({ ...appView(), privacy: true });
    session.router.screen = "tax";
    await session.togglePrivacy();
    await screen.findByTestId("holdings-hidden");
    expect(screen.queryByTestId("holdings-chart")).toBeNull();
    expect(screen.queryByTestId("holdings-readout")).toBeNull();
  });

  it("says when a pending row may still change the figures", async () => {
    const fake = taxBackend();
    fake.script.holdingsChart = () => ({ ...drawn, pending: "A transaction from 2024-09-15 12:00 is still pending" });
    await mountScreen(Tax, fake);
    await fireEvent.click(screen.getByTestId("tax-section-holdings"));
    expect((await screen.findByTestId("holdings-pending")).textContent).toContain("still pending");
  });
});

describe("Tax: the card's rate and deposits' costs", () => {
  const card: CardView = {
    years: [2025],
    year: 2025,
    method: "fifo",
    methodName: "FIFO",
    complete: true,
    rateKind: "none",
    rate: null,
    rateSource: "none chosen",
    offers: [],
    enteredNokPerBtc: "",
    enteredUsdPerBtc: "",
    enteredNokPerUsd: "",
    ruleSet: "rules/1",
    rowsSha256: "00",
    rows: 1,
    entries: [],
    disposals: [],
    deposits: [{ id: "d1", time: "2025-03-04", btc: btc("0.1 BTC", "0.1"), acquiredOn: "", costNok: "" }],
  };

  it("says a refused rate in the rate's box and a refused cost at its deposit, not at the top", async () => {
    const fake = sandboxBackend({
      ...taxBackendScript(),
      taxCard: () => card,
      setYearEndChoice: () => {
        throw { code: "invalidInput", message: "A rate is a number of NOK per BTC." };
      },
      setDepositCost: () => {
        throw { code: "invalidInput", message: "A cost is a number of NOK." };
      },
    });
    await mountScreen(Tax, fake);
    await fireEvent.click(screen.getByTestId("tax-section-card"));
    await fireEvent.input(await screen.findByTestId("card-nok-per-btc"), { target: { value: "abc" } });
    await fireEvent.click(screen.getByTestId("card-rate-nokPerBtc"));
    await vi.waitFor(() => expect(screen.getByTestId("card-rate-error").textContent).toContain("NOK per BTC"));
    await fireEvent.input(screen.getByTestId("card-deposit-cost"), { target: { value: "x" } });
    await fireEvent.click(screen.getByTestId("card-deposit-save"));
    await vi.waitFor(() => expect(screen.getByTestId("card-deposit-error").textContent).toContain("NOK"));
    expect(screen.queryByTestId("card-error")).toBeNull();
  });

  it("does not offer a rate source that has no rate to give", async () => {
    const offers: CardView["offers"] = [
      { kind: "sample", rate: null, source: "no sample in the year's last week" },
      { kind: "lastTransaction", rate: price("950 000,00 kr", "950000"), source: "transaction of 31 Dec" },
    ];
    const fake = sandboxBackend({ ...taxBackendScript(), taxCard: () => ({ ...card, offers }) });
    await mountScreen(Tax, fake);
    await fireEvent.click(screen.getByTestId("tax-section-card"));
    await vi.waitFor(() => screen.getByTestId("card-rate-sample"));
    expect(screen.getByTestId("card-rate-sample")).toHaveProperty("disabled", true);
    expect(screen.getByTestId("card-rate-lastTransaction")).toHaveProperty("disabled", false);
  });
});
