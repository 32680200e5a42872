/**
 * @module The hyperchain devnode (issue 45 item 1): a generated chain of 33 epochs with holes, validator churn and
 * delegates moving is consistent with itself (leaders = the schedule of each epoch's seed and locked stakes, EOE flags
 * at epoch ends, targets as the node counts them, each epoch's stakes = MainStaking's state four epochs before), read
 * through the SDK as the caller (its Node, its Contract decoding the election and staking contracts' dry-runs); and an
 * AeSdk spend, name claim and contract call work against a live one.
 */
import { AeSdk, Contract, MemoryAccount, Name, Node, produceNameId } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import pino from 'pino';
import { decode } from '../../src/chain/encoding.ts';
import {
  BYTECODE,
  devnodeHyperchain,
  generateChain,
  EOE_FLAG,
  HC_ELECTION_ACI,
  HC_STAKING_ACI,
  HOLE_FLAG,
  startDevnode,
  TOKEN_ACI,
  validatorSchedule,
  type Devnode,
} from '../../src/devnode/index.ts';
import { TxRejected } from '../../src/devnode/rules/apply.ts';
import type { TxFields } from '../../src/devnode/tx-codec.ts';

const AE = 10n ** 18n;
const EPOCH_LENGTH = 10;
const silent = pino({ level: 'silent' });

type EpochInfo = { start: bigint; length: bigint; seed?: Uint8Array; staking_distribution?: [string, bigint][] };
type Election = {
  epoch: () => bigint;
  epoch_info: () => [bigint, EpochInfo];
  epoch_info_epoch: (e: bigint) => EpochInfo;
  validator_schedule: (seed: Uint8Array, validators: [string, bigint][], length: bigint) => string[];
  leader: () => string;
};
type Staking = {
  sorted_validators: () => [string, bigint][];
  get_validator_state: (owner: string) => { stake: bigint; state: { delegates: Map<string, bigint> } };
};

const flagsOf = (block: { flags?: string }): number => decode(block.flags!, ['ba']).bytes.readUInt32BE(0);

describe('devnode --hyperchain', function () {
  this.timeout(300_000);

  describe('a generated chain of 33 epochs', () => {
    let devnode: Devnode;
    let node: Node;
    let election: Contract<Election>;
    let staking: Contract<Staking>;
    const generations = 33 * EPOCH_LENGTH + 2;

    before(async () => {
      devnode = await startDevnode(
        {
          port: 0,
          internalPort: 0,
          hyperchain: { epochLength: EPOCH_LENGTH },
          generate: { generations, seed: 'hyperchain', microBlocksPerGeneration: 1, txsPerMicroBlock: 4 },
          microBlockIntervalMs: 0,
        },
        silent,
      );
      // no retries: a dry-run at a past block first asks for the SDK's dry-run account there, which the node (and the
      // devnode) answers 404, and the SDK's default retries of that 404 cost 0.8 s a call (55 s for this file's 66)
      node = new Node(devnode.externalUrl, { retryCount: 0 });
      const contracts = await node.getHyperchainContractPubkeys();
      const opts = { onNode: node };
      election = await Contract.initialize<Election>({
        ...opts,
        aci: HC_ELECTION_ACI as never,
        address: contracts.election as `ct_${string}`,
      });
      staking = await Contract.initialize<Staking>({
        ...opts,
        aci: HC_STAKING_ACI as never,
        address: contracts.staking as `ct_${string}`,
      });
    });
    after(async () => {
      await devnode?.stop();
    });

    it('is a hyperchain to the SDK: its network id makes it ask, and /v3/hyperchain/contracts answers', async () => {
      expect(await node.getNetworkId()).to.equal('hc_devnet');
      expect(await (node as unknown as { _isHyperchain: () => Promise<boolean> })._isHyperchain()).to.equal(true);
      const contracts = await node.getHyperchainContractPubkeys();
      expect(devnode.chain.state.contracts.get(contracts.staking)?.code).to.equal(BYTECODE.hc_staking);
      expect(devnode.chain.state.contracts.get(contracts.election!)?.code).to.equal(BYTECODE.hc_election);
      const pin = await node.getPinningTx();
      const [epoch, info] = (await election.epoch_info()).decodedResult;
      expect(BigInt(pin.epoch)).to.equal(epoch - 1n);
      expect(BigInt(pin.height)).to.equal(info.start - 1n);
      expect(pin.blockHash).to.equal((await node.getKeyBlockByHeight(Number(info.start) - 1)).hash);
    });

    it('makes each key block by the leader the epoch schedule names, holes by the next one, EOE at epoch ends', async () => {
      let holes = 0;
      let previousTarget = 0;
      const validatorSets = new Set<string>();
      for (let e = 1; e <= 33; e++) {
        // the epoch's seed and locked stakes as the election contract held them when the epoch began
        const first = (e - 1) * EPOCH_LENGTH + 1;
        const top = { top: (await node.getKeyBlockByHeight(first - 1)).hash as `kh_${string}` };
        const info = (await election.epoch_info_epoch(BigInt(e), top)).decodedResult;
        expect(Number(info.start)).to.equal(first);
        const validators = info.staking_distribution!;
        validatorSets.add(validators.map(([v]) => v).join());
        // epochs 1 and 2 have no seed in the contract: the node takes the parent block at max(0, e - 3) × 10 + 10
        const seed = info.seed ?? devnode.chain.options.hyperchain!.parentHash(10);
        const schedule = (await election.validator_schedule(seed, validators, BigInt(EPOCH_LENGTH), top)).decodedResult;
        expect(schedule).to.deep.equal(validatorSchedule(seed, validators, EPOCH_LENGTH));
        for (let i = 0; i < EPOCH_LENGTH; i++) {
          const block = await node.getKeyBlockByHeight(first + i);
          const flags = flagsOf(block);
          const hole = (flags & HOLE_FLAG) !== 0;
          const last = i === EPOCH_LENGTH - 1;
          expect(block.miner).to.equal(hole ? schedule[i + 1] : schedule[i]);
          expect((flags & EOE_FLAG) !== 0).to.equal(last);
          expect(block.target).to.equal(last ? block.height : previousTarget + (hole ? 0 : 1));
          if (last) {
            // the epoch's validators voted on its end in the micro block of its last height, naming the block before
            const micro = await node.getMicroBlockTransactionsByHash(block.prevHash as `mh_${string}`);
            const votes = micro.transactions.filter((t) => (t.tx as { type: string }).type === 'HCVoteTx');
            expect(votes.length).to.be.at.least(1);
            for (const { tx } of votes) {
              // the SDK knows no HCVoteTx: it hands its fields over as the node names them
              const vote = tx as unknown as { voter_id: string; epoch: number; data: { block_hash: string } };
              expect(vote.epoch).to.equal(e);
              expect(vote.data.block_hash).to.equal(block.prevKeyHash);
              expect(validators.map(([v]) => v)).to.include(vote.voter_id);
            }
          }
          if (hole) {
            holes++;
            // the leader that missed its slot made no micro block of its height
            expect(devnode.chain.keyBlocks[block.height - 1]!.micro).to.deep.equal([]);
          }
          previousTarget = block.target;
        }
      }
      expect(holes).to.be.at.least(5);
      expect(validatorSets.size).to.be.at.least(5); // validators came, stakes moved
    });

    it('gives each epoch the stakes MainStaking held at the end of the epoch four before, delegates summing to them', async () => {
      for (let e = 6; e <= 33; e += 3) {
        const lockedAt = { top: (await node.getKeyBlockByHeight((e - 4) * EPOCH_LENGTH)).hash as `kh_${string}` };
        const sorted = (await staking.sorted_validators(lockedAt)).decodedResult;
        const firstOfE = { top: (await node.getKeyBlockByHeight((e - 1) * EPOCH_LENGTH)).hash as `kh_${string}` };
        expect((await election.epoch_info_epoch(BigInt(e), firstOfE)).decodedResult.staking_distribution).to.deep.equal(
          sorted,
        );
      }
      const now = (await staking.sorted_validators()).decodedResult;
      const owners = [...devnode.chain.state.contractStore.entries()].filter(([k]) => k.includes('/s:'));
      expect(owners.length).to.be.at.least(now.length);
      for (const [signKey, stake] of now) {
        const state = (await staking.get_validator_state(signKey)).decodedResult;
        expect(state.stake).to.equal(stake);
        expect([...state.state.delegates.values()].reduce((a, b) => a + b, 0n)).to.equal(stake);
      }
      expect(now.some(([, stake]) => stake > 2n ** 53n)).to.equal(true);
    });

    it('answers an account at the micro blocks of the height after the top, which follow the top key block', async () => {
      const top = await node.getCurrentGeneration();
      expect(top.microBlocks.length).to.be.above(0);
      const micro = top.microBlocks.at(-1)!;
      expect((await node.getMicroBlockHeaderByHash(micro)).height).to.equal(top.keyBlock.height + 1);
      const account = await node.getAccountByPubkeyAndHash(top.keyBlock.beneficiary, micro);
      expect(account.id).to.equal(top.keyBlock.beneficiary);
    });
  });

  it('keeps leaders, EOE and the epoch state through a fork across an epoch boundary', () => {
    const hc = devnodeHyperchain({ epochLength: EPOCH_LENGTH }, 'hc_devnet', 'fork');
    const { chain } = generateChain({ generations: 24, seed: 'fork', hyperchain: hc, networkId: 'hc_devnet' });
    chain.fork(6); // heights 19–24 replaced: the end of epoch 2 at 20 among them
    for (const k of chain.keyBlocks.slice(19)) {
      const eoe = (k.header.hcFlags! & EOE_FLAG) !== 0;
      expect(eoe, String(k.header.height)).to.equal(k.header.height === 20);
      // the replacing blocks are the scheduled leaders' (a fork makes no holes)
      const before = chain.stateAfter(chain.keyBlocks[k.header.height - 1]!.hash)!;
      expect(k.header.miner).to.equal(hc.hyperchain.leaderAt(before, k.header.height));
    }
    const state = chain.stateAfter(chain.keyBlocks[20]!.hash)!;
    expect(hc.hyperchain.currentEpoch(state).epoch).to.equal(3);
    const finalize = hc.hyperchain.read(state, 20, hc.hyperchain.election, 'finalize_info', []) as unknown as {
      values: { items: unknown[] }[];
    };
    const fork = finalize.values[0]!.items[1] as { values: { bytes: Uint8Array }[] };
    expect(Buffer.from(fork.values[0]!.bytes)).to.deep.equal(decode(chain.keyBlocks[19]!.hash, ['kh']).bytes);
  });

  it('acts on a name and an oracle in the generation they end in, whose micro blocks carry the next height', () => {
    const hc = devnodeHyperchain({ epochLength: EPOCH_LENGTH }, 'hc_devnet', 'liveness');
    const { chain, accounts } = generateChain({
      generations: 0,
      seed: 'liveness',
      hyperchain: hc,
      networkId: 'hc_devnet',
    });
    const owner = accounts[0]!.address;
    let nonce = 0;
    /** admit queues the owner's next transaction (the chain checks no signature on this path) */
    const admit = (tx: TxFields): void => {
      chain.admit(Buffer.from(`liveness ${nonce + 1}`), { account_id: owner, nonce: nonce + 1, fee: 2, ...tx });
      nonce++;
    };
    const name = 'livenessofaname.chain';
    const nameId = produceNameId(name);
    const oracleId = owner.replace('ak_', 'ok_');
    const oracle = { query_format: 'q', response_format: 'r', query_fee: 0, abi_version: 0 };
    admit({ type: 'NameClaimTx', name, name_salt: 0, name_fee: 10n ** 18n });
    admit({ type: 'OracleRegisterTx', ...oracle, oracle_ttl: { type: 'delta', value: 4 } });
    chain.mineKeyBlock();
    admit({ type: 'NameUpdateTx', name_id: nameId, name_ttl: 2, client_ttl: 0, pointers: [] });
    while (chain.height < 4) chain.mineKeyBlock();
    // generation g's micro blocks carry height g + 1: the oracle ends at 1 + 4, the name at 2 + 2
    expect([chain.state.oracles.get(oracleId)!.expires, chain.state.names.get(nameId)!.expires]).to.deep.equal([5, 4]);
    const transfer: TxFields = { type: 'NameTransferTx', name_id: nameId, recipient_id: owner };
    admit(transfer);
    chain.mineKeyBlock();
    // key block 5 revoked the name (aens_state_tree:prune); the oracle lives on until key block 6 prunes it
    expect(() => admit(transfer)).to.throw(TxRejected, /not found/);
    admit({ type: 'OracleExtendTx', oracle_id: oracleId, oracle_ttl: { type: 'delta', value: 1 } });
    chain.mineKeyBlock();
    expect(chain.state.oracles.get(oracleId)!.expires).to.equal(6);
  });

  describe('a live hyperchain devnode with AeSdk', () => {
    let devnode: Devnode;
    let aeSdk: AeSdk;
    const alice = MemoryAccount.generate();
    const bob = MemoryAccount.generate();

    before(async () => {
      devnode = await startDevnode(
        {
          port: 0,
          internalPort: 0,
          hyperchain: { epochLength: 5 },
          microBlockIntervalMs: 10,
          keyBlockIntervalMs: 150,
          accounts: [{ secretKey: alice.secretKey, balance: 1000n * AE }],
        },
        silent,
      );
      // a hyperchain's SDK polls every second; the devnode mines every 150 ms
      aeSdk = new AeSdk({
        nodes: [{ name: 'hc', instance: new Node(devnode.externalUrl) }],
        accounts: [alice],
        _expectedMineRate: 300,
        _microBlockCycle: 30,
      } as never);
    });
    after(async () => {
      await devnode?.stop();
    });

    it('spends, claims a name and deploys and calls a contract, across epochs', async () => {
      const spent = await aeSdk.spend((3n * AE).toString(), bob.address);
      expect(devnode.chain.txs.get(spent.hash)?.blockHash).to.equal(spent.blockHash);
      expect(await aeSdk.getBalance(bob.address)).to.equal((3n * AE).toString());
      // a micro block's height is the key block after it on a hyperchain
      const micro = devnode.chain.blocks.get(spent.blockHash!)!;
      expect(micro.header.height).to.equal(
        devnode.chain.keyBlocks.find((k) => k.micro.includes(micro as never))!.header.height + 1,
      );

      const name = new Name(`hyperchain${Date.now()}.chain`, aeSdk.getContext());
      await name.claim();
      expect((await name.getState()).owner).to.equal(alice.address);

      const token = await Contract.initialize<{
        init: (name: string, decimals: bigint, symbol: string, supply?: bigint) => void;
        transfer: (to: string, amount: bigint) => void;
        balance: (o: string) => bigint | undefined;
      }>({
        ...aeSdk.getContext(),
        aci: TOKEN_ACI as never,
        bytecode: BYTECODE.aex9 as `cb_${string}`,
      });
      await token.$deploy(['HC Token', 0n, 'HCT', 100n]);
      await token.transfer(bob.address, 40n);
      expect((await token.balance(bob.address)).decodedResult).to.equal(40n);
      await aeSdk.awaitHeight(12);
      const block = await aeSdk.api.getKeyBlockByHeight(10);
      expect(flagsOf(block) & EOE_FLAG).to.equal(EOE_FLAG);
    });
  });
});
