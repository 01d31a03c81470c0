// The one way the window reaches Rust: the generated commands and the backend's events, behind an
// interface that component tests implement with a scripted fake (test/fake_backend.ts).
import { listen } from "@tauri-apps/api/event";
import * as commands from "../bindings";
import type { Change, Screen, TaxSyncView } from "../bindings";

/** Every command of the generated bindings, by name. */
export type Commands = typeof commands;

/** What the backend tells the window without being asked, by event name. */
export interface Events {
  /** Something the window shows changed: the screens showing it read it again. */
  changed: Change;
  /** How the tax sync stands, at each page and at its end. */
  taxSync: TaxSyncView;
  /** A notification was clicked: the screen it is about. */
  open: Screen;
}

export type Unlisten = () => void;

export interface Backend extends Commands {
  listen<E extends keyof Events>(event: E, handler: (payload: Events[E]) => void): Promise<Unlisten>;
}

/** The backend of the real window: Tauri's IPC. */
export const tauriBackend: Backend = {
  ...commands,
  listen: (event, handler) => listen(event, (e) => handler(e.payload as never)),
};
