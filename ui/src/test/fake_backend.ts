// A scripted backend for component tests: each command answers what the test says, every call is
// recorded, and the test tells events as the real backend would.
import type { Backend, Commands, Events } from "../lib/backend";

type Script = {
  [K in keyof Commands]?: (
    args: Parameters<Commands[K]>[0],
  ) => ReturnType<Commands[K]> | Awaited<ReturnType<Commands[K]>>;
};

export type Call = { command: keyof Commands; args: unknown };

export class FakeBackend {
  readonly calls: Call[] = [];
  readonly backend: Backend;
  #listeners = new Map<keyof Events, Set<(payload: never) => void>>();

  constructor(readonly script: Script) {
    this.backend = new Proxy({} as Backend, {
      get: (_, name) => {
        if (name === "listen") {
          return async (event: keyof Events, handler: (payload: never) => void) => {
            const set = this.#listeners.get(event) ?? new Set();
            set.add(handler);
            this.#listeners.set(event, set);
            return () => set.delete(handler);
          };
        }
        const command = name as keyof Commands;
        return async (args: unknown) => {
          this.calls.push({ command, args });
          const answer = this.script[command] as ((a: unknown) => unknown) | undefined;
          if (!answer) throw { code: "internal", message: `not scripted: ${String(command)}` };
          return answer(args);
        };
      },
    });
  }

  /** Tells every listener of `event`, as the backend's watcher does. */
  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    for (const f of this.#listeners.get(event) ?? []) (f as (p: Events[E]) => void)(payload);
  }

  /** The calls of `command`, with their arguments. */
  callsOf<K extends keyof Commands>(command: K): Parameters<Commands[K]>[0][] {
    return this.calls.filter((c) => c.command === command).map((c) => c.args as Parameters<Commands[K]>[0]);
  }
}
