/**
 * countTurns counts the event loop's turns from now on: a task that queues itself anew among the immediates of each,
 * so two callbacks that see different counts ran in different turns.
 */
export function countTurns(): { readonly now: number; stop(): void } {
  let now = 0;
  let counting = true;
  const count = (): void => {
    if (!counting) return;
    now++;
    setImmediate(count);
  };
  setImmediate(count);
  return {
    get now() {
      return now;
    },
    stop: () => void (counting = false),
  };
}
