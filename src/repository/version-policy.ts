/**
 * Which versions of a model to serve, per its version_policy (docs/protocol.md §1.1; model_config.proto
 * ModelVersionPolicy): `latest { num_versions }` (default: the single highest), `all {}`, or
 * `specific { versions }`.
 */
import type { VersionPolicy } from '../config/model-config.ts';

function sortedUnique(versions: readonly number[]): number[] {
  return [...new Set(versions)].sort((a, b) => a - b);
}

/**
 * The versions to serve, ascending. Specific versions that are not available are left out (see
 * `missingVersions`); the result can be empty, which the caller reports as "no version to load".
 */
export function selectVersions(available: readonly number[], policy: VersionPolicy): number[] {
  const versions = sortedUnique(available);
  if ('latest' in policy) return versions.slice(Math.max(0, versions.length - policy.latest.num_versions));
  if ('all' in policy) return versions;
  const wanted = new Set(policy.specific.versions);
  return versions.filter((v) => wanted.has(v));
}

/** Versions a `specific` policy asks for that the repository does not have, ascending; empty for other policies. */
export function missingVersions(available: readonly number[], policy: VersionPolicy): number[] {
  if (!('specific' in policy)) return [];
  const have = new Set(available);
  return sortedUnique(policy.specific.versions).filter((v) => !have.has(v));
}

/** `latest 2`, `all`, `specific [1, 3]`: for log lines and error messages. */
export function describeVersionPolicy(policy: VersionPolicy): string {
  if ('latest' in policy) return `latest ${policy.latest.num_versions}`;
  if ('all' in policy) return 'all';
  return `specific [${policy.specific.versions.join(', ')}]`;
}
