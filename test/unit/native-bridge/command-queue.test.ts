import { describe, expect, it, vi } from 'vitest';
import { CommandQueue } from '../../../native-bridge/drivers/command-queue';
import { ReaderError } from '../../../native-bridge/drivers/reader';

const later = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function never(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error)));
}

describe('CommandQueue', () => {
  it('runs one command at a time, in order', async () => {
    const queue = new CommandQueue({ recover: async () => undefined });
    const log: string[] = [];
    const job = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await later(ms);
      log.push(`end ${name}`);
      return name;
    };
    const results = await Promise.all([queue.run('a', 1000, job('a', 20)), queue.run('b', 1000, job('b', 1)), queue.run('c', 1000, job('c', 5))]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('times a command out with a ReaderError, and recovers before the next command starts', async () => {
    const log: string[] = [];
    const queue = new CommandQueue({
      recover: async () => {
        log.push('recover start');
        await later(20);
        log.push('recover end');
      },
    });
    const timedOut = queue.run('GenImg', 30, ({ signal }) => never(signal));
    const next = queue.run('VfyPwd', 1000, async () => {
      log.push('next');
      return 'ok';
    });
    await expect(timedOut).rejects.toMatchObject({ code: 'timeout', message: 'GenImg: no reply within 30 ms' });
    expect(await next).toBe('ok');
    expect(log).toEqual(['recover start', 'recover end', 'next']);
  });

  it('rejects at the timeout even if the job ignores its signal', async () => {
    const queue = new CommandQueue({ recover: async () => undefined });
    let jobFinished = false;
    const stuck = async () => {
      await later(300);
      jobFinished = true;
    };
    await expect(queue.run('stuck', 30, stuck)).rejects.toMatchObject({ code: 'timeout' });
    // Rejected on its own deadline, not when the job that ignores its signal finally ends.
    expect(jobFinished).toBe(false);
  });

  it('recovers after checksum and protocol errors but not after device errors', async () => {
    const recover = vi.fn(async () => undefined);
    const queue = new CommandQueue({ recover });
    for (const code of ['checksum', 'protocol', 'device'] as const) {
      await expect(
        queue.run(code, 1000, async () => {
          throw new ReaderError(code, code);
        }),
      ).rejects.toMatchObject({ code });
    }
    await queue.run('after', 1000, async () => undefined);
    expect(recover).toHaveBeenCalledTimes(2);
  });

  it('extends a streaming command while it makes progress', async () => {
    const queue = new CommandQueue({ recover: async () => undefined });
    const result = await queue.run('UpChar', 40, async ({ extend }) => {
      for (let packet = 0; packet < 5; packet += 1) {
        await later(25);
        extend(40);
      }
      return 'streamed';
    });
    expect(result).toBe('streamed');
  });

  it('fails the running and every queued command, and refuses new ones', async () => {
    const queue = new CommandQueue({ recover: async () => undefined });
    const running = queue.run('GenImg', 5000, ({ signal }) => never(signal));
    const queued = queue.run('Img2Tz', 5000, async () => 'never runs');
    queue.fail(new ReaderError('disconnected', 'gone'));
    await expect(running).rejects.toMatchObject({ code: 'disconnected' });
    await expect(queued).rejects.toMatchObject({ code: 'disconnected' });
    await expect(queue.run('later', 5000, async () => 1)).rejects.toMatchObject({ code: 'disconnected' });
  });
});
