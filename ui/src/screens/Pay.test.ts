import { fireEvent, screen, within } from "@testing-library/svelte";
import userEvent from "@testing-library/user-event";
import { tick } from "svelte";
import { describe, expect, it, vi } from "vitest";
import type { PayArgs, PayCheckView, SendPaymentArgs } from "../bindings";
import { amount, appView, balancesView, btc, nok, quoteView } from "../test/fixtures";
import { mountScreen, sandboxBackend } from "../test/harness";
import Pay from "./Pay.svelte";

function check(form: PayArgs): PayCheckView {
  const ok = form.destination.startsWith("bc1") && form.amount !== "";
  return {
    ok,
    amountBtc: ok ? "0.00001" : null,
    destinationError: form.destination.startsWith("bc1") ? null : "not an address",
    recognised: form.destination.startsWith("bc1") ? "Bitcoin address" : null,
    kind: form.destination.startsWith("bc1") ? "onchain" : null,
    expiresAt: null,
    fixedAmount: null,
    linkAmountBtc: null,
    linkLabel: null,
    amountError: null,
    estimate: null,
    available: btc("0.4 BTC", "0.4"),
    availableNok: null,
    needsRecipient: false,
    savedRecipient: null,
    recipientErrors: { fullName: null, country: null, address: null, nin: null },
    summary: [{ label: "To", value: form.destination }],
    reviewed: `${form.destination}/${form.amount}`,
    saleTax: form.isPayment
      ? {
          gain: null,
          tax: null,
          lots: [],
          refusal: { why: "notSynced", reason: "the tax history is not synced", fix: "sync it" },
        }
      : null,
  };
}

function payBackend() {
  return sandboxBackend({
    countries: () => ({ countries: [{ code: "NO", name: "Norway" }] }),
    payments: () => ({ payments: [] }),
    recipients: () => ({ recipients: [] }),
    checkPayment: check,
    sendPayment: () => {
      throw { code: "sameAsUnknown", message: "The same payment is still unknown." };
    },
  });
}

describe("Pay", () => {
  it("keeps the destination being typed, its caret and focus while prices and balances arrive", async () => {
    const fake = payBackend();
    const { session } = await mountScreen(Pay, fake);
    const to = screen.getByTestId<HTMLTextAreaElement>("pay-destination");
    await userEvent.type(to, "bc1qxyz");
    to.setSelectionRange(2, 2);
    for (let i = 0; i < 5; i++) {
      session.market.quote = quoteView(`1 00${i} 000,00`);
      session.holdings.balances = balancesView(`1 00${i} 000,00 NOK`);
      await tick();
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(document.activeElement).toBe(to);
    expect(to.value).toBe("bc1qxyz");
    expect([to.selectionStart, to.selectionEnd]).toEqual([2, 2]);
  });

  it("keeps focus on the review button while background updates arrive", async () => {
    const fake = payBackend();
    const { session } = await mountScreen(Pay, fake);
    await userEvent.type(screen.getByTestId("pay-destination"), "bc1qxyz");
    await userEvent.type(screen.getByTestId("pay-amount"), "1000");
    const review = screen.getByTestId("pay-review");
    await vi.waitFor(() => expect(review).not.toHaveProperty("disabled", true));
    review.focus();
    session.holdings.balances = balancesView("2 000 000,00 NOK");
    fake.emit("changed", "payments");
    await new Promise((r) => setTimeout(r, 20));
    expect(document.activeElement).toBe(review);
  });

  it("reviews only the form as checked, and after a same-as-unknown refusal asks again before sending", async () => {
    const fake = payBackend();
    await mountScreen(Pay, fake);
    await userEvent.type(screen.getByTestId("pay-destination"), "bc1qxyz");
    await userEvent.type(screen.getByTestId("pay-amount"), "1000");
    const review = screen.getByTestId("pay-review");
    await vi.waitFor(() => expect(review).toHaveProperty("disabled", false));
    // A change since the check takes the review away until the new check answers.
    await userEvent.type(screen.getByTestId("pay-amount"), "0");
    expect(screen.getByTestId("pay-review")).toHaveProperty("disabled", true);
    await vi.waitFor(() => expect(screen.getByTestId("pay-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("pay-review"));
    await fireEvent.click(screen.getByTestId("pay-confirm"));
    await vi.waitFor(() => screen.getByTestId("pay-doubt"));
    expect(fake.callsOf("sendPayment")).toHaveLength(1);
    // Only the review's id goes: Rust sends the payment it checked.
    expect(fake.callsOf("sendPayment")[0]).toEqual({ reviewed: "bc1qxyz/10000" });
    // Nothing is armed: the confirmation is gone, and another payment needs the second word.
    expect(screen.queryByTestId("pay-confirm")).toBeNull();
    await fireEvent.click(screen.getByTestId("pay-despite-unknown"));
    await tick();
    expect(fake.callsOf("sendPayment")[1]).toMatchObject({ despiteUnknown: true });
  });
});

describe("Pay: the account", () => {
  it("is chosen by its bitcoin: the one NOK figure is Available's, so two never disagree", async () => {
    await mountScreen(Pay, payBackend());
    const options = [...screen.getByTestId<HTMLSelectElement>("pay-account").options].map((o) => o.textContent);
    expect(options).toEqual(["Main — 0.40000000 BTC", "Savings — 0.10000000 BTC"]);
  });
});

describe("Pay: a refusal", () => {
  it("is said where the confirmation was, focused, and not at the page's top", async () => {
    const fake = payBackend();
    fake.script.sendPayment = () => {
      throw { code: "exchange", message: "HTTP 400: insufficient funds" };
    };
    await mountScreen(Pay, fake);
    await userEvent.type(screen.getByTestId("pay-destination"), "bc1qxyz");
    await userEvent.type(screen.getByTestId("pay-amount"), "1000");
    await vi.waitFor(() => expect(screen.getByTestId("pay-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("pay-review"));
    await fireEvent.click(screen.getByTestId("pay-confirm"));
    const refusal = await screen.findByTestId("pay-submit-error");
    expect(refusal.textContent).toContain("insufficient funds");
    expect(screen.getByTestId("pay-form").contains(refusal)).toBe(true);
    expect(document.activeElement).toBe(refusal);
    expect(screen.queryByTestId("pay-error")).toBeNull();
    // Editing the payment clears it.
    await userEvent.type(screen.getByTestId("pay-amount"), "0");
    expect(screen.queryByTestId("pay-submit-error")).toBeNull();
  });
});

describe("Pay: the same payment again", () => {
  it("asks once more with Back as the default, Esc goes back, and Pay again sends it", async () => {
    const fake = payBackend();
    let sends = 0;
    fake.script.sendPayment = (args) => {
      sends += 1;
      if (!args.despiteRecent)
        throw { code: "sameAsRecent", message: "You paid this 3 min ago (10:00). Pay it again?" };
      return {
        message: "Sent",
        payment: {
          journalId: "2",
          sentAt: "10:03",
          destination: "bc1qxyz",
          amount: btc("1 000 sats", "0.00001"),
          worth: null,
          fee: null,
          state: "sent",
          status: "pending",
          statusText: "On its way",
          withdrawalId: "w2",
          networkId: null,
        },
      };
    };
    await mountScreen(Pay, fake);
    const send = async () => {
      await userEvent.type(screen.getByTestId("pay-destination"), "bc1qxyz");
      await userEvent.type(screen.getByTestId("pay-amount"), "1000");
      await vi.waitFor(() => expect(screen.getByTestId("pay-review")).toHaveProperty("disabled", false));
      await fireEvent.click(screen.getByTestId("pay-review"));
      await fireEvent.click(screen.getByTestId("pay-confirm"));
      await vi.waitFor(() => screen.getByTestId("pay-recent"));
    };
    await send();
    const asked = screen.getByTestId("pay-recent");
    expect(asked.textContent).toContain("3 min ago");
    const back = within(asked).getByTestId("confirm-back");
    expect(document.activeElement).toBe(back);
    expect(back.className).toContain("primary");
    expect(within(asked).getByTestId("pay-despite-recent").className).toContain("danger");
    await userEvent.keyboard("{Escape}");
    expect(screen.queryByTestId("pay-recent")).toBeNull();
    expect(sends).toBe(1);
    await fireEvent.click(screen.getByTestId("pay-review"));
    await fireEvent.click(screen.getByTestId("pay-confirm"));
    await vi.waitFor(() => screen.getByTestId("pay-recent"));
    await fireEvent.click(screen.getByTestId("pay-despite-recent"));
    await vi.waitFor(() => screen.getByTestId("payment-status"));
    expect(fake.callsOf("sendPayment").at(-1)).toMatchObject({ despiteRecent: true });
  });
});

describe("Pay: hidden amounts", () => {
  it("hides the last payment's amounts when amounts are hidden", async () => {
    const fake = payBackend();
    const sent = {
      journalId: "1",
      sentAt: "10:00",
      destination: "bc1qxyz",
      amount: btc("1 000 sats", "0.00001"),
      worth: { nok: nok("10,00 kr", "10"), when: "now" as const },
      fee: amount("12 sats", "0.00000012", "BTC"),
      state: "sent" as const,
      status: "pending" as const,
      statusText: "On its way",
      withdrawalId: "w1",
      networkId: null,
    };
    fake.script.sendPayment = () => ({ message: "Sent", payment: sent });
    const { session } = await mountScreen(Pay, fake);
    session.router.screen = "pay";
    await userEvent.type(screen.getByTestId("pay-destination"), "bc1qxyz");
    await userEvent.type(screen.getByTestId("pay-amount"), "1000");
    await vi.waitFor(() => expect(screen.getByTestId("pay-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("pay-review"));
    await fireEvent.click(screen.getByTestId("pay-confirm"));
    await vi.waitFor(() => screen.getByTestId("payment-status"));
    expect(screen.getByTestId("payment-status").textContent).toContain("1 000 sats");
    fake.script.payments = () => ({
      payments: [
        { ...sent, amount: btc("•••"), worth: { nok: nok("•••"), when: "sent" as const }, fee: amount("•••") },
      ],
    });
    fake.script.setPrivacy = () => appView({ privacy: true });
    await session.act(() => fake.backend.setPrivacy({ hidden: true }));
    await vi.waitFor(() => expect(screen.getByTestId("payment-status").textContent).not.toContain("1 000"));
    expect(screen.getByTestId("payment-status").textContent).not.toContain("10,00");
    expect(screen.getByTestId("payment-status").textContent).not.toContain("12 sats");
  });
});

describe("Pay: a bitcoin: link", () => {
  it("fills its amount in BTC and its label once, and a cleared amount stays cleared", async () => {
    const fake = payBackend();
    const link = "bitcoin:bc1qxyz?amount=0.001&label=Kari";
    fake.script.checkPayment = (form) => ({
      ...check({ ...form, destination: "bc1qxyz" }),
      linkAmountBtc: form.destination === link ? btc("", "0.001").exact : null,
      linkLabel: form.destination === link ? "Kari" : null,
    });
    await mountScreen(Pay, fake);
    await fireEvent.input(screen.getByTestId("pay-destination"), { target: { value: link } });
    const amount = screen.getByTestId<HTMLInputElement>("pay-amount");
    await vi.waitFor(() => expect(amount.value).toBe("0.001"));
    expect(screen.getByTestId<HTMLSelectElement>("pay-unit").value).toBe("btc");
    await userEvent.clear(amount);
    await new Promise((r) => setTimeout(r, 300));
    expect(amount.value).toBe("");
    const label = fake.callsOf("checkPayment").at(-1) as PayArgs;
    expect(label.label).toBe("Kari");
  });
});

describe("Pay: the recipient and NOK", () => {
  it("asks an invoice's recipient without offering the address book, and sends the BTC amount shown for NOK", async () => {
    const fake = payBackend();
    fake.script.checkPayment = (form) => ({
      ...check({ ...form, destination: "bc1q" }),
      kind: "invoice",
      needsRecipient: true,
      ok: form.recipient.fullName !== "" && form.recipient.address !== "",
      amountBtc: "0.00012345",
    });
    fake.script.sendPayment = () => ({
      message: "Sent",
      payment: {
        journalId: "1",
        sentAt: "10:00",
        destination: "lnbc1",
        amount: btc("12 345 sats", "0.00012345"),
        worth: null,
        fee: null,
        state: "sent",
        status: "pending",
        statusText: "On its way",
        withdrawalId: "w1",
        networkId: null,
      },
    });
    await mountScreen(Pay, fake);
    await userEvent.type(screen.getByTestId("pay-destination"), "lnbc1");
    await userEvent.selectOptions(screen.getByTestId("pay-unit"), "nok");
    await userEvent.type(screen.getByTestId("pay-amount"), "100");
    await vi.waitFor(() => screen.getByTestId("recipient-form"));
    expect(screen.queryByTestId("save-recipient")).toBeNull();
    await userEvent.type(screen.getByTestId("recipient-name"), "Kari Nordmann");
    await userEvent.type(screen.getByTestId("recipient-address"), "Storgata 1");
    await vi.waitFor(() => expect(screen.getByTestId("pay-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("pay-review"));
    await fireEvent.click(screen.getByTestId("pay-confirm"));
    await vi.waitFor(() => screen.getByTestId("payment-status"));
    // The review's id names the form as checked (in NOK, with Kari's details): nothing else goes.
    expect(fake.callsOf("sendPayment")[0]).toEqual({ reviewed: "bc1q/100" });
    // The form is empty again for the next payment, in the same unit.
    expect(screen.getByTestId<HTMLTextAreaElement>("pay-destination").value).toBe("");
    expect(screen.getByTestId<HTMLSelectElement>("pay-unit").value).toBe("nok");
  });
});

describe("Pay: the address book", () => {
  it("edits a saved recipient, deletes only on the second click, and pays to one", async () => {
    let recipients = [
      {
        identity: "id1",
        destination: "bc1qsaved",
        label: "Kari",
        details: {
          fullName: "Kari Nordmann",
          country: "NO",
          address: "Storgata 1",
          nin: "",
          exchange: "",
          selfCustody: true,
        },
      },
    ];
    const fake = payBackend();
    fake.script.recipients = () => ({ recipients });
    fake.script.saveRecipient = (r) => {
      recipients = [r];
      return { recipients };
    };
    fake.script.deleteRecipient = () => {
      recipients = [];
      return { recipients };
    };
    await mountScreen(Pay, fake);
    await fireEvent.click(await screen.findByText("Edit"));
    const editor = screen.getByTestId("recipient-editor");
    const name = editor.querySelectorAll("input")[1];
    await userEvent.clear(name);
    await userEvent.type(name, "Kari N. Nordmann");
    await fireEvent.submit(editor);
    await vi.waitFor(() => expect(screen.queryByTestId("recipient-editor")).toBeNull());
    expect(fake.callsOf("saveRecipient")[0]).toMatchObject({
      identity: "id1",
      details: { fullName: "Kari N. Nordmann", country: "NO" },
    });
    expect(screen.getByTestId("saved-recipient").textContent).toContain("Kari N. Nordmann");

    await fireEvent.click(screen.getByTestId("pay-to-id1"));
    expect(screen.getByTestId<HTMLTextAreaElement>("pay-destination").value).toBe("bc1qsaved");

    await fireEvent.click(screen.getByText("Delete"));
    expect(fake.callsOf("deleteRecipient")).toEqual([]);
    await fireEvent.click(screen.getByText("Confirm delete"));
    await vi.waitFor(() => screen.getByTestId("address-book-empty"));
    expect(fake.callsOf("deleteRecipient")).toEqual([{ identity: "id1" }]);
  });

  it("shows a recipient whose details the keyring cannot open as locked, and edits it from empty details", async () => {
    const fake = payBackend();
    fake.script.recipients = () => ({
      recipients: [{ identity: "id2", destination: "bc1qlocked", label: "Ola", details: null }],
    });
    await mountScreen(Pay, fake);
    await screen.findByTestId("recipient-locked");
    await fireEvent.click(screen.getByText("Edit"));
    const editor = screen.getByTestId("recipient-editor");
    const inputs = [...editor.querySelectorAll("input")].map((i) => i.value);
    expect(inputs).toEqual(["Ola", "", "", "", ""]);
  });

  it("shortens a long destination and transaction id in the list, never cutting them, and copies them whole", async () => {
    const destination = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
    const fake = sandboxBackend({
      countries: () => ({ countries: [] }),
      recipients: () => ({ recipients: [] }),
      payments: () => ({
        payments: [
          {
            journalId: "7",
            sentAt: "2026-11-24 07:03",
            destination,
            amount: btc("0.00100000 BTC", "0.001"),
            worth: { nok: nok("NOK 1,014.03", "1014.03"), when: "sent" },
            fee: amount("0.00000141 BTC", "0.00000141", "BTC"),
            state: "sent",
            status: "completed",
            statusText: "Completed",
            withdrawalId: null,
            networkId: "f".repeat(64),
          },
        ],
      }),
    });
    const written: string[] = [];
    Object.defineProperty(navigator, "clipboard", {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    });
    await mountScreen(Pay, fake);
    const row = await vi.waitFor(() => screen.getByTestId("payment-row"));
    const code = row.querySelector("code");
    expect(code?.textContent).toBe("bc1qw508…f3t4");
    expect(code?.getAttribute("title")).toBe(destination);
    // Its worth says which moment it is of, and its fee is shown.
    expect(within(row).getByTestId("payment-row-worth").textContent?.replace(/\s+/g, " ").trim()).toBe(
      "≈ NOK 1,014.03 when sent",
    );
    expect(within(row).getByTestId("payment-row-fee").textContent).toBe("Fee 0.00000141 BTC");
    await fireEvent.click(within(row).getByRole("button", { name: /Copy bc1qw508/ }));
    expect(written).toEqual([destination]);
    // A completed payment's transaction id, from the exchange's own listing, copied whole.
    const txid = within(row).getByTestId("payment-row-network-id");
    expect(txid.getAttribute("data-full")).toBe("f".repeat(64));
    await fireEvent.click(within(row).getByRole("button", { name: /Copy ffffffff/ }));
    expect(written).toEqual([destination, "f".repeat(64)]);
  });
});

describe("Pay: the lock's password", () => {
  it("cancelled in the native dialog, says nothing was sent and keeps the review open to confirm again", async () => {
    const fake = payBackend();
    fake.script.sendPayment = () => {
      throw { code: "notConfirmed", message: "Nothing was sent: the confirmation was cancelled." };
    };
    await mountScreen(Pay, fake);
    await userEvent.type(screen.getByTestId("pay-destination"), "bc1qxyz");
    await userEvent.type(screen.getByTestId("pay-amount"), "1000");
    await vi.waitFor(() => expect(screen.getByTestId("pay-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("pay-review"));
    await fireEvent.click(screen.getByTestId("pay-confirm"));
    const said = await screen.findByTestId("pay-submit-error");
    expect(said.textContent).toContain("Nothing was sent");
    expect(screen.getByTestId("pay-confirmation")).toBeTruthy();
    expect(screen.getByTestId("pay-confirm")).toHaveProperty("disabled", false);
    expect(fake.callsOf("sendPayment")).toHaveLength(1);
    // Confirmed again: the same review is asked for, not a new one.
    await fireEvent.click(screen.getByTestId("pay-confirm"));
    await vi.waitFor(() => expect(fake.callsOf("sendPayment")).toHaveLength(2));
    const [first, second] = fake.callsOf("sendPayment") as SendPaymentArgs[];
    expect(second.reviewed).toBe(first.reviewed);
  });

  it("a wrong password is said at the password field, and the confirmation stays open", async () => {
    const fake = payBackend();
    const locked = appView({ lock: { set: true, locked: false, why: null, idleMinutes: 15, beforePayments: true } });
    fake.script.allowPayment = () => ({
      problems: [{ field: "password", message: "That is not the lock's password." }],
      app: locked,
    });
    const { session } = await mountScreen(Pay, fake);
    session.appLock.app = locked;
    await userEvent.type(screen.getByTestId("pay-destination"), "bc1qxyz");
    await userEvent.type(screen.getByTestId("pay-amount"), "1000");
    await vi.waitFor(() => expect(screen.getByTestId("pay-review")).toHaveProperty("disabled", false));
    await fireEvent.click(screen.getByTestId("pay-review"));
    await userEvent.type(screen.getByTestId("payment-password"), "wrong");
    await fireEvent.click(screen.getByTestId("pay-confirm"));
    await vi.waitFor(() =>
      expect(screen.getByTestId("payment-password-error").textContent).toBe("That is not the lock's password."),
    );
    expect(screen.getByTestId("pay-confirmation")).toBeTruthy();
    expect(screen.queryByTestId("pay-submit-error")).toBeNull();
    expect(fake.callsOf("sendPayment")).toHaveLength(0);
    await userEvent.type(screen.getByTestId("payment-password"), "x");
    expect(screen.queryByTestId("payment-password-error")).toBeNull();
  });
});
