/** @module Names a test claims on the devnode: each preclaimed in one generation and claimed in the next. */
import { buildTx, commitmentHash, Tag, type AensName } from '@aeternity/aepp-sdk';

/** Send submits one account's next transactions (built for consecutive nonces) and mines them. */
export type Send = (txs: ((nonce: number) => string)[]) => Promise<unknown>;

/** claimNames preclaims every name in one send and claims them in the next, salts counted from `salt`. */
export async function claimNames(
  send: Send,
  owner: `ak_${string}`,
  names: readonly AensName[],
  salt: number,
): Promise<void> {
  await send(
    names.map(
      (name, i) => (n) =>
        buildTx({ tag: Tag.NamePreclaimTx, accountId: owner, nonce: n, commitmentId: commitmentHash(name, salt + i) }),
    ),
  );
  await send(
    names.map(
      (name, i) => (n) => buildTx({ tag: Tag.NameClaimTx, accountId: owner, nonce: n, name, nameSalt: salt + i }),
    ),
  );
}
