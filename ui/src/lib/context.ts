// The session every component reads, handed down through Svelte's context.
import { getContext, setContext } from "svelte";
import type { Session } from "./session.svelte";

const KEY = Symbol("session");

export function provideSession(session: Session): void {
  setContext(KEY, session);
}

export function useSession(): Session {
  const session = getContext<Session | undefined>(KEY);
  if (!session) throw new Error("no session: a component was mounted outside App");
  return session;
}
