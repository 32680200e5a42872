/** @module The promotion gate (pure): may a pending generation's status answer count as caught up? */
import type { ProbeResult } from './status-probe.ts';

/**
 * promotionBlockers lists why a generation's `/middleware/status` answer does not count as caught up; empty means it
 * does. The gate trusts nothing the populator alone wrote: it requires HTTP 200, `synced`, a contiguous stored range
 * (a `-H` near the head on an empty schema is not caught up), a live populator (fresh heartbeat, not stopped) and its
 * own bound on the lag (either way), computed from the node height the server read now and the stored height.
 */
export function promotionBlockers(probe: ProbeResult | undefined, maxLagBlocks: number): string[] {
  if (probe === undefined) return ['no status answer yet'];
  if (!probe.reachable) return [probe.error ?? 'status endpoint unreachable'];
  const blockers: string[] = [];
  if (probe.httpStatus !== 200) blockers.push(probe.error ?? `status endpoint answered ${probe.httpStatus ?? '?'}`);
  if (!probe.synced) blockers.push('not synced');
  if (probe.contiguous !== true) blockers.push('stored heights are not contiguous');
  if (probe.populatorAlive !== true)
    blockers.push(`populator not alive (heartbeat ${probe.secondsSinceHeartbeat ?? '?'} s old)`);
  if (probe.lag === undefined) blockers.push('lag unknown (no node height)');
  else if (Math.abs(probe.lag) > maxLagBlocks) blockers.push(`lag ${probe.lag} beyond ±${maxLagBlocks}`);
  return blockers;
}
