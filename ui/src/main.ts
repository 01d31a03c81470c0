import { mount } from "svelte";
import App from "./App.svelte";
import { tauriBackend } from "./lib/backend";
import { watchPolicy } from "./lib/policy_watch";
import "./style.css";

watchPolicy();
mount(App, { target: document.body, props: { backend: tauriBackend } });
