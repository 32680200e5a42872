/**
 * @module The replay tier (issue 87 §3): the populator and the server in front of a real æternity node 7.2.2's
 * recorded answers (test/fixtures/real-node, served by replay-node.ts), a node that kept only the states the recording
 * holds. Every request the middleware asks must be in the recording (or derived by one of replay-match.ts's rules):
 * the first test lists each one that is not; a read of a state at a block the recording lacks is refused as a pruning
 * node refuses it, and the last test requires those reads to be exactly LACKED's. Then the loaded chain is checked
 * against the recording itself: the chain, the cached node answers and their encoded_tx, the token and its holders,
 * the internal calls, the AE balances, and `mdw -v --full`.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { parseJson, toBigInt, type Json } from '../../../src/chain/json.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { mapLimit } from '../../../src/base/workers.ts';
import { serveLoaded, type Served } from '../../support/served.ts';
import { plainGet } from '../../support/app-request.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { readRecording, ReplayNode, type Miss } from '../../support/replay-node.ts';
import { canonical } from '../../support/replay-match.ts';
import type { Exchange } from '../../support/real-node-recording.ts';

type Obj = { [key: string]: Json };

const TOKEN = 'ct_A4ycGRCFAakB55jDYZXeyQnrwKLqWCxD4VNducHXRfPCSDTbE';
const TOP = 546;
const TRANSACTIONS = 357;
/** how long the load may take before the test stops waiting (the target is 60 s: printed, not asserted) */
const LOAD_BOUND_MS = 60_000;

const silent = pino({ level: 'silent' });

/** missList is each miss once, with how often it was asked: the test's failure message. */
const missList = (misses: readonly Miss[]): string[] => {
  const counts = new Map<string, number>();
  for (const m of misses) {
    const line = `${m.port} ${m.method} ${m.path}${m.body === '' ? '' : ` ${m.body}`}`;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return [...counts].map(([line, n]) => `${n}× ${line}`);
};

/** Reads of a state at a block the recording lacks, refused as a pruning node (replay-match.ts prunedState). */
interface Lacked {
  /** the reads, as stateRead names them */
  readonly reads: readonly string[];
  /** why the recording lacks it */
  readonly why: string;
  /** what a re-recording must add to answer it */
  readonly add: string;
}

/**
 * LACKED: every read of a state at a block the middleware asks and the recording cannot answer. A read not listed fails
 * the test (as a new miss does): a re-recording that adds what `add` says answers it, and its line goes.
 */
const LACKED: readonly Lacked[] = [
  {
    reads: [
      // -v --full asks a token whose balances at creation were stored as unread at its creation block
      `external POST /v2/dry-run at mh_g1J2fEEgftGtfUJQCnubwNhC8Gf14rsV92fuWra25HYreFRD3 (height 14): ${TOKEN}.balances()`,
      'external POST /v2/dry-run at mh_g1J2fEEgftGtfUJQCnubwNhC8Gf14rsV92fuWra25HYreFRD3 (height 14): ' +
        `${TOKEN}.meta_info(), ${TOKEN}.balances()`,
    ],
    why:
      "the AEX-9 detection reads a token's meta info and holders at its creation block; the recorder read the token " +
      'only at the top and at a micro block of height 176, with transfers between',
    add: 'these dry-runs (abi_version 3, top the creation block mh_g1J2…) on the external port',
  },
  {
    reads: [
      'external GET /v2/accounts/ak_11111111111111111111111111111111273Yts/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2VxNNkj3oFcHG83ixnHsXVXVyUcM9JoGq3Z7qK56M1bRCL6pw6/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2W4TaRdCAFxkKSkPMxRTgYhN3xpTggEo11Wg49tEXCzYY9r6gq/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2WN7AaSDEbAu14fPLMPUDQ7TtMxSBgreFoVTHqYfK7cUtfQb5z/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2cXBHCCV2VkQM6x89At8spyHLWVBhV1WgG9xz55v4QGR8bXzb/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2gCCWzHcNUzNfQQx1WXr5MPyyEj18dcMZkFhaGeqXwqGVDReAz/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2goFTxd43wPnuf2gvaWNt9zJUX9vyoxKiUbhtJ5hGu1XpTJ3oW/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2jqPacNdvNHZuPSPTGB131hQsztSV4HTH3XypS7xJraiKqBjqR/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2quoJvETHYb8N66nGGhNYUsUfwyKsBbH9g69W1W4tDGF1ZnAgL/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2r9mmMJkyb7NQnjeoEZznk3RnJhBiNSkMvuyJViqDS7RfEuP7r/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2sTfpY336Da5fbKw8nyaWskrw6irQxLgrozQ4ugCsAEPwXEAAm/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2vam9Jk9dYyEibxGGP9SgydFXPs5cKmnsq1WTgPHSXovjUgrFB/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_2vgHghsRV9HU4HoPPS8FksXgkVhoEvoe8DwDBXdDbtd3gL72Me/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_7g42wmrwymF288zmFxt5gwB9o5ESHrjqjeV2sj4MNqgZHzRg7/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_GvcqN6AYmk2smMKH6TL7PBiRyCEzAGiTqbmS9T8W8cfYBspdW/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_P4QMY5BqWwFBCFEMWb8SwdZP3E6pN348Xf6FcvkW59T6ooSUM/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_PmRjNgeCiarNzvCgrdM4MoUYhp7xx76YVw4Km5YRQDE1pPfCj/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_RzSKPdetjAxcofKxaxr1hvUrEtt4Gvaa91VXe8KTxT6xzWjGd/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_UAQc6y5E5QwWL6511u7aGYSDBkY4ifq5gfMUjbHH69FgDdHQK/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_ZDcEJVHYYpXib6YkCZPkx4PcaQo9mAWrRKFKkERapxX6G68Q8/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_eRNJiLd6JJzSMFnWfe9onj1sHY8ixNxr4wQoNBxpaDrdtUhWx/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_jtX17ioKgCGYiLGKeazgiyCqNLQJ1bxiRMh1nsQZF9QtGwJw7/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_qWMKNQ4SW1SWpeKyxmX1bipviY52smV5f1ubJCLYaYoFf7e6A/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_qcGUREVfpjJS2jDSgrnkefKseLuynoDcWxXfiC4mtH7t1ickG/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
      'external GET /v2/accounts/ak_zT1M1KGwxxCKwzkRZTJV1pmbHVGQe8qSorn3ibToXybcJDBzP/hash/kh_2e1jWHJtKBmnx9LL4U9p3cF6FscjrdjRTrMtowoqEAvdaAyzvM',
    ],
    why:
      "-v --full's state check compares every account's stored AE balance with the node's after its top block, " +
      "height 499's key block (a generation without micro blocks): the recorder read accounts only after the 10 " +
      "sampled generations' last blocks and the top (546), and the quiet-account rule does not reach these",
    add: 'every account the chain holds, after kh_2e1jWHJt… (height 499)',
  },
  {
    reads: [
      'external GET /v2/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi/hash/kh_tVGuWaReS5wMFdQUmWK24Q4GCU22Du7Y6Qu43aq1hLy9tuduP',
    ],
    why:
      "-v --full's scratch load ends an earlier range at a state the recording lacks, so the beneficiary A's balance " +
      'is first read exactly at the top, and without genesis accounts known its genesis balance (exactly 10^31, ' +
      "the node's patron) is then a difference the balances area locates by the node's state after blocks of the " +
      'range (difference-steps.ts): its first step reads A after height 522, which the recorder did not sample. ' +
      "Our reward rules are the node's: the loaded A equals the recording after every sampled generation",
    add: "the beneficiary A's account after every key block (or at least after height 522's)",
  },
  {
    reads: [
      'external GET /v2/accounts/ak_2GKC5xmLxUKYAnmHS3xm3eNrsUZJUSTWtbNCmj4vrjPkznoty1/hash/mh_QK5Hi7hBXKU4G43R8xjcbM7sn3XH28vKVuB8MwVkM4ErMs1Z8',
      'external GET /v2/accounts/ak_2VxNNkj3oFcHG83ixnHsXVXVyUcM9JoGq3Z7qK56M1bRCL6pw6/hash/mh_jXF2NzQJKnX7aKk9ajP8sdmArAWZcwAzN9BnuT6PW5UGUTswV',
      'external GET /v2/accounts/ak_2WN7AaSDEbAu14fPLMPUDQ7TtMxSBgreFoVTHqYfK7cUtfQb5z/hash/mh_267zt5Nj7TsJtPDDwZ6QM15saCVvSTExrn9Vx4qt5iyN1oWvU5',
      'external GET /v2/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi/hash/mh_2qmyq1Ap3G2bGB7rcKPgMmgpVB5kyjjywXfowXFf256qdyki2p',
      'external GET /v2/accounts/ak_2cXBHCCV2VkQM6x89At8spyHLWVBhV1WgG9xz55v4QGR8bXzb/hash/kh_FWoetcvZ4LCBTazZMkeTrT35PcvdQWXdH9ryHdoTHfZcqUpD5',
      'external GET /v2/accounts/ak_2cXBHCCV2VkQM6x89At8spyHLWVBhV1WgG9xz55v4QGR8bXzb/hash/mh_v2zuBWKc82PkNHB6qcSs6nG6QC3utbgXdNSntXUV8Y45pD5sa',
      'external GET /v2/accounts/ak_2gCCWzHcNUzNfQQx1WXr5MPyyEj18dcMZkFhaGeqXwqGVDReAz/hash/kh_2TUWEqkGVifXBkiqfACsP98imVPBN1SLa2ccwSNCJ5bpMGoeCi',
      'external GET /v2/accounts/ak_2gCCWzHcNUzNfQQx1WXr5MPyyEj18dcMZkFhaGeqXwqGVDReAz/hash/mh_QosNqhvqfm8jdMUm6EUE35UVQqDEw12aXZ4NG4NibTvxT13v6',
      'external GET /v2/accounts/ak_2goFTxd43wPnuf2gvaWNt9zJUX9vyoxKiUbhtJ5hGu1XpTJ3oW/hash/mh_Zc2GiiSe6PSvKgKeCUGNGr1cfraC6osPEww238s9WdtFmWyAx',
      'external GET /v2/accounts/ak_2jqPacNdvNHZuPSPTGB131hQsztSV4HTH3XypS7xJraiKqBjqR/hash/kh_2FjwowbDmwCJXA62wbsU3LMVHRt4Uka4iro53J67zE2WeESGcV',
      'external GET /v2/accounts/ak_2jqPacNdvNHZuPSPTGB131hQsztSV4HTH3XypS7xJraiKqBjqR/hash/kh_2rEErpJ7otRzE3AfydNkamViCasqgCFXYU21GEC9BmK25JrLvQ',
      'external GET /v2/accounts/ak_2quoJvETHYb8N66nGGhNYUsUfwyKsBbH9g69W1W4tDGF1ZnAgL/hash/kh_PKG5u19vxBwQYfw8DWrVcyeWkmTKREcY4gWoiTohcEe29o58R',
      'external GET /v2/accounts/ak_2quoJvETHYb8N66nGGhNYUsUfwyKsBbH9g69W1W4tDGF1ZnAgL/hash/mh_2bmnho97ffoPqHYxu2k6XmgkFciJRr3C2ngB6wAoZtWswsDFDc',
      'external GET /v2/accounts/ak_2r9mmMJkyb7NQnjeoEZznk3RnJhBiNSkMvuyJViqDS7RfEuP7r/hash/mh_jbpYw5PEuXLdzDwTrng6p9QR83Sx2UScs8efpEJmZHsK9ixo5',
      'external GET /v2/accounts/ak_2r9mmMJkyb7NQnjeoEZznk3RnJhBiNSkMvuyJViqDS7RfEuP7r/hash/mh_nn2i6WkakXuyH6aQL25Jo7CyGeVd5wXBSbs5iBRf6h9R78RZz',
      'external GET /v2/accounts/ak_2sTfpY336Da5fbKw8nyaWskrw6irQxLgrozQ4ugCsAEPwXEAAm/hash/mh_2wh4k76odaXXGzyAhzdAqW3sHjgq8Hua32h19g1rJ6VLjWXjHK',
      'external GET /v2/accounts/ak_2sTfpY336Da5fbKw8nyaWskrw6irQxLgrozQ4ugCsAEPwXEAAm/hash/mh_ckQVUcxkLxV7TxoDTDh1Jtb7wrA626RHEbqG7GxLZA5fRPreJ',
      'external GET /v2/accounts/ak_2vam9Jk9dYyEibxGGP9SgydFXPs5cKmnsq1WTgPHSXovjUgrFB/hash/kh_2LYc185uhR1nnF7yU9dhyXsth7tcMweCpf6vLtvU8zDrSVL5GP',
      'external GET /v2/accounts/ak_2vam9Jk9dYyEibxGGP9SgydFXPs5cKmnsq1WTgPHSXovjUgrFB/hash/mh_kvx9JKRhWNVLGugxQ3ShQVZLekj9AQtNJQ3jLxoizoRJrzoAv',
      'external GET /v2/accounts/ak_2vgHghsRV9HU4HoPPS8FksXgkVhoEvoe8DwDBXdDbtd3gL72Me/hash/mh_cqvTWuxu1DZN1f592ncNXab3jAPBz67pjEggruzvMQEAz3Mad',
      'external GET /v2/accounts/ak_4Rw5sd7YAHFGUzzT8cHZFwrt48Kgf7y2cqsshcC12n3ptmtkp/hash/mh_zqiyMcURqTZQnuv9ELzacxMYGQqUp9tFN4jNVhknDLTyYfnRg',
      'external GET /v2/accounts/ak_GvcqN6AYmk2smMKH6TL7PBiRyCEzAGiTqbmS9T8W8cfYBspdW/hash/mh_2mDF2Q3VDFpC2tTjqHYLRaaATS6peufrnbnaAbUAm4KWRmaZMz',
      'external GET /v2/accounts/ak_GvcqN6AYmk2smMKH6TL7PBiRyCEzAGiTqbmS9T8W8cfYBspdW/hash/mh_ygSNsH4RsX4wzHW8sbJ4k6tnyWjQDF36ekSsKvfqgNgGuuxee',
      'external GET /v2/accounts/ak_PmRjNgeCiarNzvCgrdM4MoUYhp7xx76YVw4Km5YRQDE1pPfCj/hash/mh_224ugcY954ok17DZvm7pJrHfruk7QPy4hrwi9GaKec9kqD5Rsv',
      'external GET /v2/accounts/ak_PmRjNgeCiarNzvCgrdM4MoUYhp7xx76YVw4Km5YRQDE1pPfCj/hash/mh_22KkzNovngziDqoaw79evNTwu1NLFPVTnn2PuE7KkbSWadx2Ck',
      'external GET /v2/accounts/ak_RzSKPdetjAxcofKxaxr1hvUrEtt4Gvaa91VXe8KTxT6xzWjGd/hash/kh_2FjwowbDmwCJXA62wbsU3LMVHRt4Uka4iro53J67zE2WeESGcV',
      'external GET /v2/accounts/ak_RzSKPdetjAxcofKxaxr1hvUrEtt4Gvaa91VXe8KTxT6xzWjGd/hash/mh_pezqJv9w19v58YWy29cAWfRuycyLSGKVfTDQEZu4dUgzmkJ2q',
      'external GET /v2/accounts/ak_UAQc6y5E5QwWL6511u7aGYSDBkY4ifq5gfMUjbHH69FgDdHQK/hash/mh_2dxux5murhSXPdJqbF4rYZ26jKo9W9CzAXomPALMXkUsJmnd83',
      'external GET /v2/accounts/ak_UAQc6y5E5QwWL6511u7aGYSDBkY4ifq5gfMUjbHH69FgDdHQK/hash/mh_7bxwSnNw1mxVr95bkUMKQpTDURZWNjseZDMcfiwstQSCuGTVC',
      'external GET /v2/accounts/ak_eRNJiLd6JJzSMFnWfe9onj1sHY8ixNxr4wQoNBxpaDrdtUhWx/hash/mh_2HWNDzxzv97k59A8GE3AbQTTn6wReaUdQ42fdhKrQgapivsUxu',
      'external GET /v2/accounts/ak_jtX17ioKgCGYiLGKeazgiyCqNLQJ1bxiRMh1nsQZF9QtGwJw7/hash/kh_26mWUCeAyZW8K2HR5EzxbHbQzYTAygvCcKvkMmbyG1vHseSNQ6',
      'external GET /v2/accounts/ak_jtX17ioKgCGYiLGKeazgiyCqNLQJ1bxiRMh1nsQZF9QtGwJw7/hash/mh_2rXvVmrywtFKxm2eWwd2eCvE3Be9jpg7tMZXmo5MH8gvKHD9Fu',
      'external GET /v2/accounts/ak_qWMKNQ4SW1SWpeKyxmX1bipviY52smV5f1ubJCLYaYoFf7e6A/hash/mh_2BMNcfcn8ZnRPLGq8SBMgWUbbxJJLGWcBV9uvfRELKv8Yxheam',
      'external GET /v2/accounts/ak_qWMKNQ4SW1SWpeKyxmX1bipviY52smV5f1ubJCLYaYoFf7e6A/hash/mh_2Tx2A2vQVMhv57EhnyhkXPp66wsnpGbhXHbAKHbKc4AhGWKNpG',
      'external GET /v2/accounts/ak_qcGUREVfpjJS2jDSgrnkefKseLuynoDcWxXfiC4mtH7t1ickG/hash/kh_mCLf9wMrzgmYRPqAHAoHLkqKr3RyeQ5xNcepryQPgX2CokQZ4',
      'external GET /v2/accounts/ak_qcGUREVfpjJS2jDSgrnkefKseLuynoDcWxXfiC4mtH7t1ickG/hash/mh_2BaXftinAobX36DXGamDCXx2BLy5WXT8HtYVN75Q2aSrMU86WZ',
      'external GET /v2/accounts/ak_xcw5aPEeHjCn79RcvMNRMwNsV7mL5PZpnx1tAKnsJ53zsHEaY/hash/kh_23enkoKt4tRuXAhLv9bkCBn1geji4EWKRoWYoEGPqN2WG1LSQD',
      'external GET /v2/accounts/ak_zT1M1KGwxxCKwzkRZTJV1pmbHVGQe8qSorn3ibToXybcJDBzP/hash/mh_2rKmcCQbyVLnNDXkBZzPUqE1HSNPzy1rQ7gUzCzThcR1wuZ3Qa',
      'external GET /v2/accounts/ak_zT1M1KGwxxCKwzkRZTJV1pmbHVGQe8qSorn3ibToXybcJDBzP/hash/mh_vKhuNtHEUjYUh3NGU3ftw2jqm3k2xnyZVL1sn8weLxC2sgpTv',
    ],
    why:
      "-v --full's state check also compares each account's balance after 2 past heights drawn from its id " +
      "(verify-state.ts pastHeights), at each height's last block: the recording holds these accounts only after the " +
      'sampled blocks, and the quiet-account rule does not reach these (the states around differ, or a ' +
      'transaction between may have changed them)',
    add: 'these accounts after these blocks (or every account after every block)',
  },
  {
    reads: [
      'external GET /v2/accounts/ak_5voaFoC8jSgo9upQ6fx8mJx87PFXqkB1L5QUCGjaZca4em8sW/hash/kh_CciVD7Zb38Dwon8AHWDpNK1LatrprLLWGDLTtkUjZqerpxS1o',
    ],
    why:
      'an account no stored change tells is served its genesis balance, asked of the node at the genesis key block ' +
      '(genesis-balances.ts, no GENESIS_ACCOUNTS_FILE here); the recorder never read the genesis state, so the ' +
      'server falls back to the state after the block asked, which the recording holds (this account absent: 0)',
    add: 'the accounts the chain holds (and this one, absent) at the genesis key block kh_CciVD7…',
  },
];

/** the `-v --full` notes of what LACKED leaves unverifiable */
const PRUNED_NOTES: readonly string[] = [
  `aex9 ${TOKEN}: unverifiable: PRUNED: every node had garbage-collected the state at ` +
    'mh_g1J2fEEgftGtfUJQCnubwNhC8Gf14rsV92fuWra25HYreFRD3 (its balances at creation were stored as unread)',
  '39 past account balance(s) unverifiable: every node answered 410 there',
];

describe('the populator and the server in front of a real node 7.2.2 (replayed)', function () {
  this.timeout(240_000);
  const recording = readRecording();
  const recorded = (path: string, port?: 'internal'): Exchange | undefined =>
    recording.find((e) => e.method === 'GET' && e.path === path && e.port === port);
  const recordedJson = (path: string): Obj => parseJson(recorded(path)!.body) as Obj;
  let node: ReplayNode;
  let db: { url: string; drop(): Promise<void> };
  let cfg: Config;
  let populator: Populator | undefined;
  let served: Served | undefined;
  let loaded = false;
  /** every recorded micro block, and whether the node listed transactions in it */
  const microBlocks = new Map<string, boolean>(
    recording.flatMap((e): [string, boolean][] => {
      const mh = /^\/v3\/micro-blocks\/hash\/(mh_\w+)\/transactions$/.exec(e.path)?.[1];
      return mh && e.status === 200 ? [[mh, ((parseJson(e.body) as Obj).transactions as Json[]).length > 0]] : [];
    }),
  );
  /** each micro block's reads of its header and of its transactions while the populator loaded (-v --full reads later) */
  const loadReads = new Map<string, number[]>();

  before(async () => {
    node = new ReplayNode(recording);
    await node.start();
    db = await createTestDatabase({ migrated: 'mdw', verifyScratch: true });
    cfg = loadConfig({
      NODE_URL: node.externalUrl,
      NODE_INTERNAL_URL: node.internalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw',
      POLL_INTERVAL_MS: '50',
    });
    const started = performance.now();
    populator = await startPopulator({ cfg, log: silent, registry: new prom.Registry() });
    const synced = populator.synced().then(() => true);
    synced.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    loaded = await Promise.race([
      synced,
      new Promise<false>((r) => (timer = setTimeout(() => r(false), LOAD_BOUND_MS))),
    ]);
    clearTimeout(timer);
    // the benchmark figure of issue 87 (target: 60 s), printed, not asserted
    console.log(
      `      replay tier: ${loaded ? 'loaded' : 'NOT loaded'} in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `answered ${JSON.stringify(Object.fromEntries(node.answered))}; ${node.misses.length} misses`,
    );
    await populator.stop();
    populator = undefined;
    for (const mh of microBlocks.keys())
      loadReads.set(
        mh,
        ['header', 'transactions'].map((what) => node.askedFor(`/v3/micro-blocks/hash/${mh}/${what}`)),
      );
    served = await serveLoaded(cfg);
  });
  after(async () => {
    await populator?.stop();
    await served?.close();
    await node?.stop();
    await db?.drop();
  });

  const get = async (path: string): Promise<{ status: number; text: string; body: Json }> => {
    const res = await served!.request.get(path);
    return { status: res.status, text: res.text, body: res.text === '' ? null : parseJson(res.text) };
  };

  it('asks the node nothing the recording lacks', () => {
    expect(missList(node.misses)).to.deep.equal([]);
  });

  it("read each micro block's header once, and its transactions once only when the header names some", () => {
    expect([...microBlocks.values()].filter((holds) => !holds).length, 'empty micro blocks').to.equal(223);
    const apart = [...microBlocks].filter(([mh, holds]) => {
      const [header, transactions] = loadReads.get(mh)!;
      return header !== 1 || transactions !== (holds ? 1 : 0);
    });
    expect(apart.map(([mh]) => `${mh}: ${loadReads.get(mh)!.join(' ')}`)).to.deep.equal([]);
  });

  it('loads the recorded chain completely: heights 0..546, 357 transactions', async () => {
    expect(loaded, 'synced with the replayed node').to.equal(true);
    const status = (await get('/mdw/v3/status')).body as Obj;
    expect(status.mdw_height).to.equal(TOP);
    expect((await get('/mdw/v3/transactions/count')).body).to.equal(TRANSACTIONS);
  });

  /** the recorded GETs of the chain's blocks and transactions, each answered by a block or transaction stored */
  const chainGets = (): Exchange[] =>
    recording.filter(
      (e) =>
        e.method === 'GET' &&
        e.port === undefined &&
        e.status === 200 &&
        /^\/v[23]\/(key-blocks|generations|micro-blocks|transactions)\//.test(e.path) &&
        !e.path.includes('?') &&
        !/current|pending/.test(e.path),
    );

  /** The server's answer to a recorded GET, and whether the server forwarded it to the node (the replay's own). */
  interface ChainAnswer {
    readonly status: number;
    readonly text: string;
    readonly forwarded: boolean;
  }
  let chainAnswers: Promise<Map<Exchange, ChainAnswer>> | undefined;
  /**
   * answered asks the server each of chainGets once (the server only reads the loaded chain): the cases that check its
   * answers, each alone or after the other, read the same answers. Asked 8 at a time; a path's /v2 and /v3 one after
   * the other, as the replay counts a path's requests under both.
   */
  const answered = (): Promise<Map<Exchange, ChainAnswer>> =>
    (chainAnswers ??= (async () => {
      const answers = new Map<Exchange, ChainAnswer>();
      const groups = new Map<string, Exchange[]>();
      for (const e of chainGets()) groups.set(e.path.slice(3), [...(groups.get(e.path.slice(3)) ?? []), e]);
      await mapLimit([...groups.values()], 8, async (group) => {
        for (const e of group) {
          const before = node.askedFor(e.path);
          const res = await plainGet(`${served!.url}${e.path}`);
          answers.set(e, { ...res, forwarded: node.askedFor(e.path) !== before });
        }
      });
      return answers;
    })());

  it('answers every recorded /v2 and /v3 GET of the chain from its cache as the node did, as exact JSON', async () => {
    const paths = chainGets();
    expect(paths.length).to.be.above(5000);
    const apart: string[] = [];
    let forwarded = 0;
    let bytes = 0;
    for (const [e, res] of await answered()) {
      // an answer the server forwarded is the replay's own: only the cached ones are compared
      if (res.forwarded) {
        forwarded += 1;
        continue;
      }
      if (res.text === e.body) bytes += 1;
      // as JSON, not as bytes: the cache keeps the node's objects in jsonb, which drops their spacing and orders
      // their keys its own way; what a client reads (every key and value, integers digit for digit) is the node's
      const [got, want] = [res.text, e.body].map(canonical);
      if (res.status !== e.status || got !== want) apart.push(`${e.path}: ${res.status} ${res.text.slice(0, 300)}`);
    }
    console.log(
      `      ${paths.length} recorded GETs: ${forwarded} forwarded to the node, ${bytes} cached byte for byte`,
    );
    expect(paths.length - forwarded, 'answered from the cache').to.be.above(6000);
    expect(apart.slice(0, 20), `${apart.length} answers differ`).to.deep.equal([]);
  });

  it("serves every transaction with the node's encoded_tx", async () => {
    const lacking: string[] = [];
    const answers = await answered();
    for (const e of chainGets().filter((g) => /\/transactions(\/th_\w+|\/index\/\d+)?$/.test(g.path))) {
      const want = parseJson(e.body) as Obj;
      const got = parseJson(answers.get(e)!.text) as Obj;
      const txs = (o: Obj): Obj[] => (Array.isArray(o.transactions) ? (o.transactions as Obj[]) : [o]);
      const [wanted, served] = [txs(want), txs(got)];
      for (const [i, tx] of wanted.entries())
        if (served[i]?.encoded_tx !== tx.encoded_tx)
          lacking.push(`${e.path} ${String(tx.hash)} ${tx.tx && (tx.tx as Obj).type}`);
    }
    expect([...new Set(lacking)], "transactions served without the node's encoded_tx").to.deep.equal([]);
  });

  it(`serves ${TOKEN} as a valid AEX-9 whose holders hold what the recorded balances() answered`, async () => {
    const token = await get(`/mdw/v3/aex9/${TOKEN}`);
    expect(token.status, token.text).to.equal(200);
    expect(token.body).to.deep.include({ name: 'Real Token', symbol: 'REAL', decimals: 18 });
    expect((token.body as Obj).invalid ?? false).to.equal(false);
    // its balances at creation were refused as pruned (LACKED): what happened before the first read of its state is
    // unknown, and the token says so; its holders since are the state's, read where its transfers took it below zero
    expect((token.body as Obj).incomplete).to.equal(true);
    const dryRun = recording.find(
      (e) => e.label === 'AEX-9 balances() call_req abi_version 3' && e.port === undefined,
    )!;
    const value = ((parseJson(dryRun.body) as Obj).results as Obj[])[0]!.call_obj as Obj;
    const code = String(recordedJson(`/v3/contracts/${TOKEN}/code`).bytecode);
    // the independent oracle: aepp-calldata decodes the node's answer with the token's own code
    const decoded = new BytecodeContractCallEncoder(code as `cb_${string}`).decodeResult(
      'balances',
      String(value.return_value) as `cb_${string}`,
    ) as Map<string, bigint>;
    const expected = new Map([...decoded].map(([k, v]) => [k, BigInt(v)]));
    const holders = new Map<string, bigint>();
    let page: string | null = `/mdw/v3/aex9/${TOKEN}/balances?limit=100`;
    while (page) {
      const res = await get(page);
      expect(res.status, res.text).to.equal(200);
      for (const h of (res.body as Obj).data as Obj[]) holders.set(String(h.account_id), toBigInt(h.amount));
      page = ((res.body as Obj).next as string | null) ?? null;
    }
    expect(new Map([...holders].filter(([, v]) => v !== 0n))).to.deep.equal(expected);
  });

  it("stores each contract call's internal calls as the recorded dry-run replays' tx_events", async () => {
    const replays = recording.filter((e) => e.port === undefined && e.label?.startsWith('replay ContractCallTx'));
    expect(replays.length).to.equal(14);
    const stored: Obj[] = [];
    let page: string | null = '/mdw/v3/contracts/calls?direction=forward&limit=100';
    while (page) {
      const res = await get(page);
      expect(res.status, res.text).to.equal(200);
      stored.push(...((res.body as Obj).data as Obj[]));
      page = ((res.body as Obj).next as string | null) ?? null;
    }
    for (const r of replays) {
      const hash = /th_\w+/.exec(r.label!)![0];
      const events = (((parseJson(r.body) as Obj).tx_events ?? []) as Obj[]).filter(
        (e) => e.kind === 'internal_call_tx',
      );
      const calls = stored.filter((c) => c.call_tx_hash === hash);
      expect(
        calls.map((c) => [c.function, (c.internal_tx as Obj).recipient_id, toBigInt((c.internal_tx as Obj).amount)]),
        hash,
      ).to.deep.equal(events.map((e) => [e.key, (e.info as Obj).recipient_id, toBigInt((e.info as Obj).amount)]));
    }
  });

  it('has the AE balances of the recorded account states after the sampled generations', async () => {
    // the chain file's reads of accounts at the sampled generations' last blocks (the errors file's are of no block)
    const blocks = new Set(
      recording
        .filter((e) => e.status === 200 && /^\/v3\/key-blocks\/hash\/|\/header$/.test(e.path))
        .map((e) => e.path.split('/')[4]),
    );
    const sampled = recording.filter(
      (e) =>
        e.port === undefined && /^\/v3\/accounts\/ak_\w+\/hash\/\w+$/.test(e.path) && blocks.has(e.path.split('/')[5]),
    );
    expect(sampled.length).to.be.above(100);
    const apart: string[] = [];
    for (const e of sampled) {
      const [, , , account, , block] = e.path.split('/');
      const height = heightOf(block!);
      // the last block of generation H: our balance?height=H is after generation H
      const res = await get(`/mdw/v3/accounts/${account}/balance?height=${height}`);
      const expected = e.status === 200 ? toBigInt((parseJson(e.body) as Obj).balance) : 0n;
      const got = res.status === 200 ? toBigInt((res.body as Obj).balance) : undefined;
      if (got !== expected) apart.push(`${account} after ${height}: ${got} ≠ ${expected} (${res.status})`);
    }
    expect(apart).to.deep.equal([]);
  });

  it("follows the locked-coins account as the node credits it: the claims' name fees, the auction's winning bid after its end", async () => {
    // the recorded node: the long names' fees locked at their claims, the auction (auct47089.chain, its last bid 100
    // AE, the outbid 12139.3 AE returned) ending at 526 (the name's ttl less its 180000 generations), its winning bid
    // locked by key block 527; the account read at the sampled generations only
    const locked = 'ak_11111111111111111111111111111111273Yts';
    const balance = (height: number): Json => recordedJson(`/v3/accounts/${locked}/height/${height}`).balance!;
    const end = Number(recordedJson('/v3/names/auct47089.chain').ttl) - 180_000;
    const { body } = await get(`/mdw/v3/accounts/${locked}/balance/history?direction=forward&limit=100`);
    const changes = ((body as Obj).data as Obj[]).map((c) => [c.height, c.micro_index, c.kind, toBigInt(c.delta!)]);
    expect(changes).to.deep.equal([
      [33, 0, 'fee_lock_name', 159_700_000_000_000_000n],
      [42, 0, 'fee_lock_name', 258_400_000_000_000_000n],
      [end + 1, null, 'fee_lock_name', 100n * 10n ** 18n],
    ]);
    const sum = changes.reduce((a, c) => a + (c[3] as bigint), 0n);
    expect([toBigInt(balance(411)), toBigInt(balance(537))]).to.deep.equal([sum - 100n * 10n ** 18n, sum]);
    for (const [height, expected] of [
      [end, sum - 100n * 10n ** 18n],
      [end + 1, sum],
    ] as const) {
      const res = await get(`/mdw/v3/accounts/${locked}/balance?height=${height}`);
      expect(toBigInt((res.body as Obj).balance!), `after ${height}`).to.equal(expected);
    }
  });

  it('finds no difference with `-v --full`', async () => {
    const lines: string[] = [];
    const report = await verifyChain({ cfg, log: silent, out: (l) => lines.push(l) }, { full: true });
    // a state the replay node refuses as pruned (LACKED) is a note, not a difference: every other line is one
    const pruned = lines.filter((l) => /unverifiable: (PRUNED|every node answered 410)/.test(l));
    expect(lines.filter((l) => !pruned.includes(l))).to.deep.equal([]);
    expect(pruned).to.deep.equal(PRUNED_NOTES);
    expect(report.differences).to.equal(0);
    expect(report.checked).to.equal(TOP + 1);
  });

  it('refused as pruned only the states the recording lacks, each known and why (asked last: -v --full reads too)', () => {
    const asked = [...new Set(node.pruned.map(stateRead))].sort();
    const listed = LACKED.flatMap((l) => l.reads);
    expect(
      asked.filter((r) => !listed.includes(r)).join('\n'),
      'refused as pruned, not in LACKED: the recording lacks more than it did',
    ).to.equal('');
    expect(
      listed.filter((r) => !asked.includes(r)).join('\n'),
      'in LACKED, not asked: the middleware asks less (or the recording holds it now)',
    ).to.equal('');
  });

  /**
   * stateRead names a read refused as pruned: a GET by its path, a dry-run by its top and each call it makes, decoded
   * with the called contract's recorded code.
   */
  function stateRead(m: Miss): string {
    if (m.method === 'GET') return `${m.port} GET ${m.path}`;
    const body = parseJson(m.body) as { top: string; txs: { call_req?: Obj }[] };
    const calls = body.txs.map(({ call_req: call }) => {
      if (!call) return 'a transaction';
      const contract = String(call.contract);
      const code = recorded(`/v3/contracts/${contract}/code`);
      if (!code) return `${contract}(${String(call.calldata)})`;
      const encoder = new BytecodeContractCallEncoder(String((parseJson(code.body) as Obj).bytecode) as `cb_${string}`);
      const { functionName: name } = encoder.decodeCall(String(call.calldata) as `cb_${string}`) as {
        functionName: string;
      };
      return `${contract}.${name}()`;
    });
    return `${m.port} POST ${m.path} at ${body.top} (height ${heightOf(body.top)}): ${calls.join(', ')}`;
  }

  /** heightOf is a recorded block's generation (its header's height). */
  function heightOf(block: string): number {
    const path = block.startsWith('kh_') ? `/v3/key-blocks/hash/${block}` : `/v3/micro-blocks/hash/${block}/header`;
    return Number(recordedJson(path).height);
  }
});
