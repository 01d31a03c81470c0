import { fireEvent, screen } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { tick } from "svelte";
import { describe, expect, it, vi } from "vitest";
import type { InvoiceView, QrView } from "../bindings";
import { amount, appView, balancesView, nok } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import Receive from "./Receive.svelte";

const qr = (text: string): QrView => ({ text, uri: `bitcoin:${text}`, svg: "<svg/>" });

function invoice(status: InvoiceView["status"]): InvoiceView {
  return {
    id: "inv1",
    invoice: "lnbc1…",
    qr: qr("lnbc1…"),
    amount: amount("1 000 sats", "0.00001", "BTC"),
    alsoBtc: null,
    alsoNok: nok("10,00 kr", "10"),
    publicDescription: "coffee",
    privateNote: "",
    status,
    statusText: status === "paid" ? "Paid" : "Waiting for payment",
    expiresAt: new Date(Date.now() + 600_000).toISOString(),
    createdAt: "10:00",
  };
}

function receiveBackend() {
  let status: InvoiceView["status"] = "unpaid";
  const fake = sandboxBackend({
    receiveDestinations: () => ({
      onchain: qr("bc1q…"),
      lightningAddress: qr("me@x"),
      lnurl: qr("lnurl1…"),
      unified: null,
    }),
    recentInvoices: () => ({ invoices: [] }),
    createInvoice: () => invoice("unpaid"),
    invoiceStatus: () => invoice(status),
  });
  return { fake, pay: () => (status = "paid") };
}

describe("Receive", () => {
  it("makes an invoice from the form as typed and follows it to paid", async () => {
    const { fake, pay } = receiveBackend();
    await mountScreen(Receive, fake);
    await userEvent.type(screen.getByTestId("invoice-publicDescription"), "coffee");
    await userEvent.type(screen.getByTestId("invoice-amount"), "1000");
    await fireEvent.click(screen.getByTestId("create-invoice"));
    await vi.waitFor(() => screen.getByTestId("invoice"));
    expect(fake.callsOf("createInvoice")).toEqual([
      { accountId: null, amount: "1000", unit: "sats", publicDescription: "coffee", privateNote: "" },
    ]);
    expect(screen.getByTestId("invoice-countdown").textContent).toMatch(/^(9|10):\d\d$/);
    // There is no cancel to offer: the card says the invoice stays payable until it expires.
    expect(screen.getByTestId("invoice-no-cancel")).toBeTruthy();
    pay();
    fake.emit("changed", "invoices");
    await vi.waitFor(() => expect(screen.getByTestId("invoice").dataset.status).toBe("paid"));
  });

  it("hides the shown invoice's amounts when amounts are hidden", async () => {
    const { fake } = receiveBackend();
    const { session } = await mountScreen(Receive, fake);
    session.router.screen = "receive";
    await userEvent.type(screen.getByTestId("invoice-amount"), "1000");
    await fireEvent.click(screen.getByTestId("create-invoice"));
    await vi.waitFor(() => screen.getByTestId("invoice"));
    expect(screen.getByTestId("invoice").textContent).toContain("1 000 sats");
    fake.script.invoiceStatus = () => ({ ...invoice("unpaid"), amount: amount("•••"), alsoNok: nok("•••") });
    fake.script.setPrivacy = () => appView({ privacy: true });
    await session.act(() => fake.backend.setPrivacy({ hidden: true }));
    await vi.waitFor(() => expect(screen.getByTestId("invoice").textContent).not.toContain("1 000"));
    expect(screen.getByTestId("invoice").textContent).not.toContain("10,00");
    // The invoice itself carries its amount: folded until the user asks for it.
    expect(screen.queryByTestId("qr-invoice")).toBeNull();
    expect(screen.getByTestId("invoice").textContent).not.toContain("lnbc1…");
    await fireEvent.click(screen.getByTestId("invoice-reveal"));
    expect(screen.getByTestId("invoice").textContent).toContain("lnbc1…");
  });

  it("keeps the note being typed, its caret and focus while an invoice and the balances change", async () => {
    const { fake } = receiveBackend();
    const { session } = await mountScreen(Receive, fake);
    const note = screen.getByTestId<HTMLInputElement>("invoice-privateNote");
    await userEvent.type(note, "for the bike");
    note.setSelectionRange(3, 7);
    fake.emit("changed", "invoices");
    session.holdings.balances = balancesView("2 000 000,00 NOK");
    await tick();
    await new Promise((r) => setTimeout(r, 20));
    expect(document.activeElement).toBe(note);
    expect(note.value).toBe("for the bike");
    expect([note.selectionStart, note.selectionEnd]).toEqual([3, 7]);
  });

  it("a refused amount clears the invoice made before and says so at the amount field", async () => {
    const { fake } = receiveBackend();
    await mountScreen(Receive, fake);
    const amount = screen.getByTestId<HTMLInputElement>("invoice-amount");
    await userEvent.type(amount, "1000");
    await fireEvent.click(screen.getByTestId("create-invoice"));
    await vi.waitFor(() => screen.getByTestId("invoice"));
    fake.script.createInvoice = () => {
      throw { code: "invalidInput", message: "Not an amount." };
    };
    await userEvent.clear(amount);
    await userEvent.type(amount, "abc");
    await fireEvent.click(screen.getByTestId("create-invoice"));
    await vi.waitFor(() => expect(screen.getByTestId("invoice-amount-error").textContent).toBe("Not an amount."));
    expect(screen.queryByTestId("invoice")).toBeNull();
    expect(document.activeElement).toBe(amount);
    await userEvent.type(amount, "1");
    expect(screen.queryByTestId("invoice-amount-error")).toBeNull();
  });

  it("a refusal that is not about the amount shows under the button, not the old invoice", async () => {
    const { fake } = receiveBackend();
    await mountScreen(Receive, fake);
    await fireEvent.click(screen.getByTestId("create-invoice"));
    await vi.waitFor(() => screen.getByTestId("invoice"));
    fake.script.createInvoice = () => {
      throw { code: "network", message: "No answer." };
    };
    await fireEvent.click(screen.getByTestId("create-invoice"));
    await vi.waitFor(() => expect(screen.getByTestId("invoice-refused").textContent).toBe("No answer."));
    expect(screen.queryByTestId("invoice")).toBeNull();
  });

  it("shows an earlier invoice again from the list", async () => {
    const { fake } = receiveBackend();
    fake.script.recentInvoices = () => ({ invoices: [{ ...invoice("unpaid"), id: "inv0", qr: null }] });
    await mountScreen(Receive, fake);
    await fireEvent.click(await screen.findByTestId("reopen-invoice"));
    await vi.waitFor(() => expect(screen.getByTestId("invoice").dataset.invoiceId).toBe("inv1"));
    expect(fake.callsOf("invoiceStatus")).toEqual([{ id: "inv0" }]);
  });
});
