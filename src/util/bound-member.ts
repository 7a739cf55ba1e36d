/**
 * A member of `target` for a Proxy that stands in for it: methods come back bound to `target` (so that private
 * fields and `this` work through the proxy), anything else as it is. The bound function is made once per method and
 * kept: the API wrappers (withImageRequests, withGeneration) sit on every request's path, and a fresh `bind` on
 * every property read was garbage on each call.
 */
const boundByTarget = new WeakMap<
  object,
  Map<PropertyKey, { readonly fn: (...a: unknown[]) => unknown; readonly bound: (...a: unknown[]) => unknown }>
>();

export function boundMember(target: object, prop: PropertyKey): unknown {
  const value: unknown = Reflect.get(target, prop, target);
  if (typeof value !== 'function') return value;
  const fn = value as (...a: unknown[]) => unknown;
  let cache = boundByTarget.get(target);
  if (cache === undefined) {
    cache = new Map();
    boundByTarget.set(target, cache);
  }
  const hit = cache.get(prop);
  // A method replaced on the target (tests do this) gets a fresh binding.
  if (hit !== undefined && hit.fn === fn) return hit.bound;
  const bound = fn.bind(target);
  cache.set(prop, { fn, bound });
  return bound;
}
