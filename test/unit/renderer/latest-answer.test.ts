// The activity screen's stale answer (issue 11): a slow answer to an older request must not
// overwrite the page a newer request brought.
import { describe, expect, it } from 'vitest';
import { latestAnswer } from '../../../renderer/state/latest-answer';

describe('latest answer', () => {
  it('only the newest request’s answer lands, whatever order the answers come in', async () => {
    const latest = latestAnswer();
    const shown: string[] = [];
    const request = (page: string, delayMs: number) => {
      const ticket = latest.take();
      return new Promise<void>((resolve) =>
        setTimeout(() => {
          if (ticket.current()) shown.push(page);
          resolve();
        }, delayMs),
      );
    };
    // Page 1 asked first and answered last (slow); page 2 asked after it and answered first.
    await Promise.all([request('page 1', 40), request('page 2', 5)]);
    expect(shown).toEqual(['page 2']);
  });

  it('a lone request lands', () => {
    const ticket = latestAnswer().take();
    expect(ticket.current()).toBe(true);
  });
});
