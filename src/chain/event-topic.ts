/** @module A contract event's topic 0. Pure. */
import { hash } from './encoding.ts';

/** eventTopic is an event's topic 0 as the node prints it: its name's blake2b-256 as a decimal integer. */
export function eventTopic(name: string): string {
  return BigInt(`0x${Buffer.from(hash(Buffer.from(name, 'utf8'))).toString('hex')}`).toString();
}
