/** @module listAll: a whole list read page by page, starting over when the pages' snapshot has expired (410). */
import { isKubeError, type KubeClient, type KubeObject } from './client.ts';

/** LIST_PAGE_SIZE is the page size of every list the operator makes (client-go's pager uses 500 as well). */
export const LIST_PAGE_SIZE = 500;

/** PAGED_ATTEMPTS: a list whose continue token expires (410) starts over this often, then is read in one request. */
const PAGED_ATTEMPTS = 3;

/** ListAllOptions: a label selector, and the page size (default LIST_PAGE_SIZE). */
export interface ListAllOptions {
  labelSelector?: string;
  limit?: number;
}

/**
 * listAll reads every object of a kind in pages of `limit`, following the continue tokens. The pages share the
 * first page's snapshot; when the API server has compacted it meanwhile (410 Gone on a continue), the list starts
 * over from the first page, and after PAGED_ATTEMPTS such expiries it is read unpaged, as client-go's pager falls
 * back to a full list.
 */
export async function listAll<T extends KubeObject>(
  kube: KubeClient,
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  options: ListAllOptions = {},
): Promise<{ items: T[]; resourceVersion: string }> {
  const { labelSelector, limit = LIST_PAGE_SIZE } = options;
  for (let attempt = 1; attempt <= PAGED_ATTEMPTS; attempt++) {
    try {
      return await pages<T>(kube, apiVersion, kind, namespace, labelSelector, limit);
    } catch (err) {
      if (!(err instanceof ContinueExpired)) throw err;
    }
  }
  const whole = await kube.list<T>(apiVersion, kind, namespace, labelSelector === undefined ? {} : { labelSelector });
  return { items: whole.items, resourceVersion: whole.resourceVersion };
}

/** ContinueExpired marks a 410 on a continue token (the first page cannot expire: any other error is kept). */
class ContinueExpired extends Error {}

async function pages<T extends KubeObject>(
  kube: KubeClient,
  apiVersion: string,
  kind: string,
  namespace: string | undefined,
  labelSelector: string | undefined,
  limit: number,
): Promise<{ items: T[]; resourceVersion: string }> {
  const items: T[] = [];
  let token: string | undefined;
  let resourceVersion = '';
  do {
    const options = {
      limit,
      ...(labelSelector === undefined ? {} : { labelSelector }),
      ...(token ? { continue: token } : {}),
    };
    const page = await kube.list<T>(apiVersion, kind, namespace, options).catch((err: unknown) => {
      if (token !== undefined && isKubeError(err, 410))
        throw new ContinueExpired('continue token expired', { cause: err });
      throw err;
    });
    items.push(...page.items);
    if (token === undefined) resourceVersion = page.resourceVersion;
    token = page.continue;
  } while (token !== undefined);
  return { items, resourceVersion };
}
