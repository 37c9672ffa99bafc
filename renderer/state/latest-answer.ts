// Several requests for the same screen can be under way at once (a filter typed, a page turned):
// only the newest one's answer may land. Each request takes a ticket; an answer whose ticket is no
// longer the newest is dropped, so a slow old answer never overwrites a newer page.
export interface LatestAnswer {
  /** A ticket for a request about to be sent; `current()` is true while no newer one was taken. */
  take(): { current(): boolean };
}

export function latestAnswer(): LatestAnswer {
  let newest = 0;
  return {
    take() {
      newest += 1;
      const mine = newest;
      return { current: () => mine === newest };
    },
  };
}
