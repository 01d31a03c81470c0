// The orders and payments whose outcome is still unknown, for the banner and their screen.
import type { Change, UnknownsView } from "../../bindings";
import type { Backend } from "../backend";

export class Doubts {
  unknowns = $state<UnknownsView | null>(null);

  /** A payment or an unknown entry changed: the list is checked and read again. */
  static readonly INVALIDATED_BY = ["payments", "unknowns"] as const satisfies readonly Change[];

  constructor(private readonly backend: Backend) {}

  /** Reads the list; the backend first checks every unknown entry against the exchange again. */
  async refresh(): Promise<void> {
    try {
      const next = await this.backend.unknowns({});
      if (JSON.stringify(next) !== JSON.stringify(this.unknowns)) this.unknowns = next;
    } catch {
      // Tried again on the next change.
    }
  }

  forget(): void {
    this.unknowns = null;
  }
}
