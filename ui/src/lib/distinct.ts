/**
 * `items` without later repeats of a key. A keyed list cannot show one key twice, and an exchange
 * that lists an order or a trade twice must not stop the screen from drawing.
 */
export function distinct<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
