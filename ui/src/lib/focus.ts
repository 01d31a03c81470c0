// Where focus goes when the button pressed is replaced by what it did.

/** Focuses `node` when it appears and again whenever `key` changes (a new result), so the keyboard
 * is not left on the page's body and a screen reader reads the result. The node needs
 * `tabindex="-1"`. */
export function focusWhen(node: HTMLElement, key: unknown): { update: (next: unknown) => void } {
  let last = key;
  node.focus();
  return {
    update(next: unknown) {
      if (next !== last) node.focus();
      last = next;
    },
  };
}
