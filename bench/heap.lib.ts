/**
 * @module A child process's live memory, read through its inspector (started with `--inspect=127.0.0.1:PORT`): a full
 * collection first, then its `process.memoryUsage()`. What its RSS alone cannot tell: how much of it the collector's
 * slack is (garbage not yet collected, pages the heap keeps) and how much is kept. In MiB, as process-memory.lib.ts.
 */

export interface SettledMemory {
  /** before the collection (MB): the RSS, and the pages the old and the young generation hold */
  readonly rssMb: number;
  readonly oldSpaceMb: number;
  readonly newSpaceMb: number;
  /** after it (MB): the heap's live objects, the heap's committed pages, the array buffers' bytes, the RSS */
  readonly heapUsedMb: number;
  readonly heapTotalMb: number;
  readonly arrayBuffersMb: number;
  readonly settledRssMb: number;
}

/** inspect sends one command to the inspector at `port` and answers its result. */
async function inspect(port: number, method: string, params: object = {}): Promise<Record<string, unknown>> {
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const ws = new WebSocket(target!.webSocketDebuggerUrl);
  try {
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    return await new Promise((resolve, reject) => {
      ws.onmessage = (message) => {
        const answer = JSON.parse(String(message.data)) as {
          id?: number;
          result?: Record<string, unknown>;
          error?: unknown;
        };
        if (answer.id !== 1) return;
        if (answer.error) reject(new Error(`${method}: ${JSON.stringify(answer.error)}`));
        else resolve(answer.result ?? {});
      };
      ws.send(JSON.stringify({ id: 1, method, params }));
    });
  } finally {
    ws.close();
  }
}

type Usage = NodeJS.MemoryUsage & { spaces: Record<string, number> };

/** memoryUsage is the process's `process.memoryUsage()` and its heap's spaces' committed bytes, by name. */
async function memoryUsage(port: number): Promise<Usage> {
  const expression = `JSON.stringify({
    ...process.memoryUsage(),
    spaces: Object.fromEntries(process.getBuiltinModule('node:v8').getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size])),
  })`;
  const { result } = await inspect(port, 'Runtime.evaluate', { expression, returnByValue: true });
  return JSON.parse((result as { value: string }).value) as Usage;
}

/** settledMemory collects the garbage of the process whose inspector listens on `port`, and reads its memory. */
export async function settledMemory(port: number): Promise<SettledMemory> {
  const before = await memoryUsage(port);
  await inspect(port, 'HeapProfiler.collectGarbage');
  const after = await memoryUsage(port);
  const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
  return {
    rssMb: mb(before.rss),
    oldSpaceMb: mb(before.spaces.old_space ?? 0),
    newSpaceMb: mb(before.spaces.new_space ?? 0),
    heapUsedMb: mb(after.heapUsed),
    heapTotalMb: mb(after.heapTotal),
    arrayBuffersMb: mb(after.arrayBuffers),
    settledRssMb: mb(after.rss),
  };
}
