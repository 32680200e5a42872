/** @module ae_mdw's 400s around hyperchains (its HyperchainPlug), as wrappers of the resources they guard. */
import { v3BadRequest } from './mdw-errors.ts';
import { resource, type Answer, type Answers, type Resource, type ResourceRequest, type V3Env } from './resource.ts';

type Answering = (env: V3Env, request: ResourceRequest) => Promise<Answer>;

/** ae_mdw's answers (HyperchainPlug) to a hyperchain route on another chain, and to a miners' route on a hyperchain. */
export const ONLY_ON_HYPERCHAIN = 'This endpoint is only available on a hyperchain node';
export const NOT_ON_HYPERCHAIN = 'This endpoint is not available on a hyperchain node';

/** onlyOnHyperchain is the resource of `answer`, answering ae_mdw's 400 on a chain that is not a hyperchain. */
export function onlyOnHyperchain(answers: Answers, answer: Answering): Resource {
  return resource(answers, async function onHyperchain(env, request) {
    if (!(await env.hyperchain.isHyperchain())) throw v3BadRequest(ONLY_ON_HYPERCHAIN);
    return answer(env, request);
  });
}

/** notOnHyperchain is the resource of `answer`, answering ae_mdw's 400 on a hyperchain (the miners' statistics). */
export function notOnHyperchain(answers: Answers, answer: Answering): Resource {
  return resource(answers, async function offHyperchain(env, request) {
    if (await env.hyperchain.isHyperchain()) throw v3BadRequest(NOT_ON_HYPERCHAIN);
    return answer(env, request);
  });
}
