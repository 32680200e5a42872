/** @module A micro block added to a devnode's top generation, holding a spend signed with the SDK, as a node adds one. */
import { expect } from 'chai';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import type { Devnode } from '../../../../src/devnode/index.ts';

/** addMicroBlock signs a spend with the sdk, posts it and seals it in a micro block of the top generation. */
export async function addMicroBlock(devnode: Devnode): Promise<void> {
  const [from, to] = devnode.accounts;
  const post = async (url: string, body: unknown): Promise<{ tx: string }> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).to.equal(200);
    return (await res.json()) as { tx: string };
  };
  const built = await post(`${devnode.internalUrl}/v2/debug/transactions/spend`, {
    sender_id: from!.publicKey,
    recipient_id: to!.publicKey,
    amount: 1,
    fee: 2e13,
  });
  const signed = await new MemoryAccount(from!.secretKey as `sk_${string}`).signTransaction(
    built.tx as `tx_${string}`,
    {
      networkId: 'ae_devnet',
    },
  );
  await post(`${devnode.externalUrl}/v2/transactions`, { tx: signed });
  await devnode.mineMicroBlock();
}
