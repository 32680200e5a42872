/** @module A process's memory (Linux /proc): its resident set now and at its highest, and the peak over some work. */
import { readFileSync } from 'node:fs';

/** memoryMb is a process's resident set (VmRSS) and its highest so far (VmHWM), in MB. */
export function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** rssMb is a process's resident set in MB. */
export const rssMb = (pid: number): number => memoryMb(pid).rss;

/** withPeakRss runs `work`, sampling a process's RSS every 100 ms: its result and the peak seen. */
export async function withPeakRss<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peakMb = rssMb(pid);
  const sampler = setInterval(() => (peakMb = Math.max(peakMb, rssMb(pid))), 100);
  try {
    return { result: await work(), peakMb };
  } finally {
    clearInterval(sampler);
  }
}
