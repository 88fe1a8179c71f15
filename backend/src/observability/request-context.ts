export { type RequestContext, requestContext } from '@kora/kernel';
