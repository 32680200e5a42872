/**
 * @module What the API server refuses of a CustomResourceDefinition itself (apiextensions' validation), found by the
 * real tier: the fake refuses it too, so the fast tier cannot pass a CRD no cluster would take. Pure.
 */
import { KubeError } from './client.ts';
import type { KubeObject } from './client.ts';
import type { PlainObject } from './merge.ts';

/**
 * checkCrd throws the API server's 422 for a CRD it would refuse. At a schema's root, `metadata` may say nothing but
 * `type: object` and schemas of `name` and `generateName`: not even a description (the API server serves metadata's
 * own schema there).
 */
export function checkCrd(crd: KubeObject): void {
  const versions = ((crd.spec as PlainObject | undefined)?.versions ?? []) as PlainObject[];
  const problems: string[] = [];
  versions.forEach((version, i) => {
    const root = (version.schema as PlainObject | undefined)?.openAPIV3Schema as PlainObject | undefined;
    const metadata = (root?.properties as PlainObject | undefined)?.metadata as PlainObject | undefined;
    if (metadata === undefined) return;
    const { type, properties, ...rest } = metadata;
    const named = Object.keys((properties ?? {}) as PlainObject).filter((k) => k !== 'name' && k !== 'generateName');
    if ((type !== undefined && type !== 'object') || Object.keys(rest).length > 0 || named.length > 0) {
      problems.push(
        `spec.versions[${i}].schema.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything ` +
          'other than name and generateName, but metadata is implicitly specified',
      );
    }
  });
  if (problems.length > 0) {
    const name = crd.metadata.name ?? '';
    throw new KubeError(
      422,
      'Invalid',
      `CustomResourceDefinition.apiextensions.k8s.io "${name}" is invalid: ${problems.join('; ')}`,
    );
  }
}
