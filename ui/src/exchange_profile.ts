// The exchange profile form: API and OAuth addresses, the operator's abbreviation, the client id
// and the scopes to ask for. Checked field by field before saving; nothing is saved while any
// field is wrong, and what the user typed stays in the fields with a message beside each wrong one.

import * as api from "./bindings";
import type { AppView, ExchangeProfileArgs, ProfileProblemsView } from "./bindings";
import { h } from "./dom";
import { scopeName, scopeNames, t } from "./i18n";

/** What the user typed, kept across redraws until it is saved. */
let draft: ExchangeProfileArgs | null = null;
let problems: ProfileProblemsView | null = null;

function fieldError(id: string, text: string | null | undefined): Node | null {
  return text ? h("span", { class: "field-error", "data-testid": `${id}-error`, role: "alert" }, text) : null;
}

/**
 * The form for `app`'s exchange profile. `save` runs the saving call like every other action
 * (one at a time, with its message).
 */
export function exchangeProfileForm(app: AppView, save: (f: () => Promise<AppView>) => Promise<void>): Node {
  const saved = app.profiles.find((p) => p.kind === "exchange");
  const now: ExchangeProfileArgs = draft ?? {
    baseUrl: saved?.baseUrl ?? "",
    oauthBaseUrl: saved?.oauthBaseUrl ?? "",
    operator: saved?.kind === "exchange" ? saved.operator : "",
    clientId: saved?.clientId ?? "",
    scopes: saved?.scopes ?? Object.keys(scopeNames),
  };
  const input = (id: string, value: string | undefined, placeholder = "") =>
    h("input", { "data-testid": id, value: value ?? "", placeholder, "aria-invalid": problems && (problems as Record<string, string | null>)[id] ? "true" : "false" });
  const base = input("exchange-base-url", now.baseUrl, "https://");
  const oauth = input("exchange-oauth-base-url", now.oauthBaseUrl ?? "", t("the same as the API"));
  const operator = input("exchange-operator", now.operator ?? "", "svc");
  const client = input("exchange-client-id", now.clientId);
  const boxes = Object.keys(scopeNames).map((s) =>
    h("input", { type: "checkbox", value: s, checked: (now.scopes ?? []).includes(s), "data-testid": `exchange-scope-${s}` }),
  );
  const submit = async (): Promise<void> => {
    const args: ExchangeProfileArgs = {
      baseUrl: base.value,
      oauthBaseUrl: oauth.value,
      operator: operator.value,
      clientId: client.value,
      scopes: boxes.filter((b) => b.checked).map((b) => b.value),
    };
    draft = args;
    await save(async () => {
      const found = await api.checkExchangeProfile(args);
      if (Object.values(found).some((v) => v)) {
        problems = found;
        throw { code: "invalidInput", message: t("Nothing was saved: correct the marked fields.") };
      }
      const next = await api.saveExchangeProfile(args);
      draft = null;
      problems = null;
      return next;
    });
  };
  return h(
    "form",
    { class: "stack", "data-testid": "exchange-profile", onsubmit: (e: Event) => {
        e.preventDefault();
        void submit();
      } },
    h("label", {}, t("API address"), base, fieldError("exchange-base-url", problems?.baseUrl)),
    h("label", {}, t("OAuth address"), oauth, fieldError("exchange-oauth-base-url", problems?.oauthBaseUrl)),
    h("label", {}, t("Abbreviation in header names and keys"), operator, fieldError("exchange-operator", problems?.operator)),
    h("label", {}, t("Client id"), client, fieldError("exchange-client-id", problems?.clientId)),
    h("fieldset", { class: "scopes" },
      h("legend", {}, t("Access to ask for when signing in")),
      ...boxes.map((b) => h("label", { class: "scope" }, b, " ", scopeName(b.value), " ", h("code", {}, b.value))),
      fieldError("exchange-scopes", problems?.scopes)),
    h("button", { type: "submit", "data-testid": "save-exchange" }, t("Save exchange")),
  );
}
