/**
 * @module An AEX-9 token's balances as the contract itself answers them: its `balances()` entrypoint dry-run through
 * @aeternity/aepp-sdk on a node's top, the oracle of the balances the API serves.
 */
import { AeSdk, Contract, Node, type Encoded } from '@aeternity/aepp-sdk';
import { TOKEN_ACI } from '../../src/devnode/contracts/aci.ts';

/** dryRunBalances is the `balances()` answer of `token` on the node at `nodeUrl`: each holder's balance. */
export async function dryRunBalances(nodeUrl: string, token: string): Promise<Map<string, bigint>> {
  const aeSdk = new AeSdk({ nodes: [{ name: 'node', instance: new Node(nodeUrl, { retryCount: 0 }) }] });
  const contract = await Contract.initialize<{ balances: () => Map<string, bigint> }>({
    ...aeSdk.getContext(),
    aci: TOKEN_ACI as never,
    address: token as Encoded.ContractAddress,
  });
  return (await contract.balances()).decodedResult;
}
