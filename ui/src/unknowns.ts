// Orders and payments whose outcome is unknown: a banner on every screen while any is, and one
// screen with the evidence behind each state and the user's "I checked: it was not sent".
import * as api from "./bindings";
import type { EvidenceView, MoneyState, UnknownEntryView, UnknownsView } from "./bindings";
import { h } from "./dom";
import { errorText } from "./form";
import { t } from "./i18n";

let view: UnknownsView | null = null;
let armed: number | null = null;
let error: string | null = null;
let rerender: () => void = () => {};

export function setUnknownsContext(r: () => void): void {
  rerender = r;
}

/** Reads the list; the backend first checks every unknown entry against the exchange again. */
export async function refreshUnknowns(): Promise<void> {
  try {
    const next = await api.unknowns({});
    if (JSON.stringify(next) !== JSON.stringify(view)) {
      view = next;
      rerender();
    }
  } catch {
    // Tried again on the next tick.
  }
}

/** Shown above every screen while anything is unknown. */
export function unknownsBanner(open: () => void): Node | null {
  if (!view || view.unresolved === 0) return null;
  const text =
    view.unresolved === 1
      ? t("1 order or payment has an unknown outcome. Do not send it again until it is settled.")
      : `${view.unresolved} ${t("orders or payments have an unknown outcome. Do not send them again until they are settled.")}`;
  return h("div", { class: "banner", role: "alert", "data-testid": "unknowns-banner" },
    h("span", {}, text),
    h("button", { type: "button", "data-testid": "unknowns-banner-open", onclick: open }, t("See what Nordlys checked")));
}

function stateWord(state: MoneyState): string {
  switch (state) {
    case "placed": return t("Placed");
    case "sent": return t("Sent");
    case "notPlaced": return t("Not placed");
    case "notSent": return t("Not sent");
    case "rejected": return t("Refused");
    default: return t("Outcome unknown");
  }
}

async function settle(id: number): Promise<void> {
  try {
    view = await api.settleUnknown({ journalId: id });
    error = null;
  } catch (e) {
    error = errorText(e);
  }
  armed = null;
  rerender();
}

function settleControl(e: UnknownEntryView): Node {
  const notMade = e.kind === "order" ? t("it was not placed") : t("it was not sent");
  if (armed !== e.journalId) {
    return h("button", { type: "button", "data-testid": "unknown-settle", onclick: () => { armed = e.journalId; rerender(); } },
      `${t("I checked my exchange history:")} ${notMade}`);
  }
  return h("div", { class: "confirm" },
    h("p", { class: "warning" }, t("Nordlys checks the exchange once more, then records your answer. If it was in fact made, sending it again would pay twice.")),
    h("div", { class: "row" },
      h("button", { type: "button", "data-testid": "unknown-settle-confirm", onclick: () => void settle(e.journalId) }, `${t("Yes:")} ${notMade}`),
      h("button", { type: "button", onclick: () => { armed = null; rerender(); } }, t("Back"))));
}

/** The evidence cut into checks, each ending with its verdict; newest first. */
function checks(evidence: EvidenceView[]): EvidenceView[][] {
  const out: EvidenceView[][] = [];
  let current: EvidenceView[] = [];
  for (const ev of evidence) {
    current.push(ev);
    if (ev.read === "verdict" || ev.read === "user") {
      out.push(current);
      current = [];
    }
  }
  if (current.length > 0) out.push(current);
  return out.reverse();
}

function checkTable(rows: EvidenceView[]): Node {
  return h("table", { class: "accounts evidence" },
    h("tbody", {}, ...rows.map((ev) => h("tr", {}, h("td", {}, ev.at), h("td", {}, ev.read), h("td", {}, ev.saw)))));
}

function entry(e: UnknownEntryView): Node {
  const what = e.kind === "order" ? t("Order") : t("Payment");
  const all = checks(e.evidence);
  const latest = all[0]?.[all[0].length - 1];
  return h("article", { class: "card unknown-entry", "data-testid": "unknown-entry", "data-journal-id": String(e.journalId), "data-state": e.state },
    h("h3", {}, `${what} · ${e.summary}`),
    h("p", {}, `${t("Sent")} ${e.sentAt} · `, h("strong", { "data-testid": "unknown-state" }, stateWord(e.state))),
    latest ? h("p", { class: "muted", "data-testid": "unknown-latest" }, `${t("Last checked")} ${latest.at}: ${latest.saw}`) : h("p", { class: "muted" }, t("No check has run yet.")),
    all.length > 0
      ? h("details", { "data-testid": "unknown-evidence" },
          h("summary", {}, `${t("What Nordlys checked")} (${all.length})`),
          ...all.map(checkTable))
      : null,
    e.open ? settleControl(e) : null);
}

export function unknownsScreen(): Node {
  if (!view) return h("p", { class: "muted" }, `${t("Loading")}…`);
  return h("section", { class: "unknowns" },
    h("h2", {}, t("Orders and payments in doubt")),
    h("p", { class: "muted" }, t("When an answer from the exchange is lost, Nordlys never sends again. It checks the account until it finds evidence either way; until then the outcome is unknown.")),
    error ? h("p", { class: "message error", "data-testid": "unknowns-error" }, error) : null,
    view.entries.length === 0
      ? h("p", { class: "muted", "data-testid": "unknowns-empty" }, t("Nothing is in doubt: every order and payment has a known outcome."))
      : h("div", { class: "stack" }, ...view.entries.map(entry)));
}
