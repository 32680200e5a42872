/**
 * @module The one function of the node's HCElection contract whose arguments the bytecode's type information cannot
 * encode (it keeps no element type of a list): `validator_schedule(seed, validators, length)`, as its ACI declares it
 * (aeternity `test/contracts/HCElection.aes`). The answers are decoded from the deployed bytecode.
 */
export const SCHEDULE_ACI = [
  {
    contract: {
      name: 'HCElection',
      kind: 'contract_main',
      payable: false,
      typedefs: [],
      functions: [
        {
          name: 'validator_schedule',
          arguments: [
            { name: 'seed', type: { bytes: 'any' } },
            { name: 'validators', type: { list: [{ tuple: ['address', 'int'] }] } },
            { name: 'length', type: 'int' },
          ],
          returns: { list: ['address'] },
          stateful: false,
          payable: false,
        },
      ],
    },
  },
] as const;
