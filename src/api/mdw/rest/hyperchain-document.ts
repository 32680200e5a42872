/** @module The hyperchain part of the /v3/api document: the schemas of ae_mdw's hyperchain answers. Pure. */

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;

function object(properties: Record<string, unknown>): Record<string, unknown> {
  return { type: 'object', required: Object.keys(properties), properties, additionalProperties: true };
}

/** HYPERCHAIN_SCHEMAS: the answers' shapes. */
export const HYPERCHAIN_SCHEMAS: Record<string, unknown> = {
  HyperchainConfig: object({
    consensus: { type: 'array', items: object({ consensus_key: str, staking_contract: str }) },
    hard_forks: { type: 'object', additionalProperties: int },
    fork_management: object({ network_id: { type: 'string', nullable: true } }),
  }),
};
