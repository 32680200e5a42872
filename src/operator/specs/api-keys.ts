/**
 * @module The servers' API keys file from spec.api.keysSecretRef: the Secret's key mounted as a file (no subPath, so the
 * kubelet rewrites it in place when the Secret changes and the servers reread it live) and API_KEYS_FILE naming it.
 * Pure.
 */
import type { V1EnvVar, V1Volume, V1VolumeMount } from '@kubernetes/client-node';
import type { SecretKeyRef } from '../api/middleware-types.ts';

/** API_KEYS_DIR is where the keys file is mounted in a server container. */
export const API_KEYS_DIR = '/etc/mdw/api-keys';
const VOLUME = 'api-keys';
const FILE = 'keys.json';

/** ApiKeysMount is what a server pod needs for its keys file: the variable, the volume and the container's mount. */
export interface ApiKeysMount {
  readonly env: V1EnvVar[];
  readonly volume: V1Volume;
  readonly mount: V1VolumeMount;
}

/** apiKeysMount is the keys file of `ref`, or undefined when the spec names no Secret. */
export function apiKeysMount(ref: SecretKeyRef | undefined): ApiKeysMount | undefined {
  if (ref === undefined) return undefined;
  return {
    env: [{ name: 'API_KEYS_FILE', value: `${API_KEYS_DIR}/${FILE}` }],
    // the keys are the servers' to read, no one else's
    volume: {
      name: VOLUME,
      secret: { secretName: ref.name, items: [{ key: ref.key, path: FILE }], defaultMode: 0o440 },
    },
    mount: { name: VOLUME, mountPath: API_KEYS_DIR, readOnly: true },
  };
}
