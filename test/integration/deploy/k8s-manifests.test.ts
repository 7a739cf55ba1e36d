/**
 * deploy/k8s: every kustomization renders with `kubectl kustomize` (Debian's kubernetes-client), every object
 * validates offline against the Kubernetes OpenAPI schemas (kubernetes-models) or its CRD's schema
 * (@kubernetes-models/prometheus-operator; KServe's ClusterServingRuntime by the fields KServe documents, its
 * containers as core/v1 Containers), and the objects agree with each other and with rtserve itself: selectors
 * match the pod labels, named ports exist, the probes answer 200 on a real rtserve, the mounted config file loads
 * with rtserve's own schema, the alert expressions pass promtool, and the HPA's metric is the adapter rule's.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { ConfigMap, Container, PersistentVolumeClaim, Service } from 'kubernetes-models/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import { startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { needTool } from '../ops/helpers.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const k8s = join(root, 'deploy', 'k8s');

type Obj = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; [k: string]: unknown };
/* eslint-disable @typescript-eslint/no-explicit-any -- rendered manifests are walked as plain JSON */
type Json = any;

function render(dir: string): Obj[] {
  const r = spawnSync('kubectl', ['kustomize', join(k8s, dir)], { encoding: 'utf8' });
  assert.equal(r.status, 0, `kubectl kustomize ${dir} failed: ${r.stderr}`);
  return parseAllDocuments(r.stdout).map((d) => d.toJSON() as Obj);
}

/** Schema validation of one object; throws naming the object and what is wrong. */
const MODELS: Record<string, { validate(o: Obj): void }> = {
  'v1/ConfigMap': { validate: (o) => new ConfigMap(o as never).validate() },
  'v1/Service': { validate: (o) => new Service(o as never).validate() },
  'v1/PersistentVolumeClaim': { validate: (o) => new PersistentVolumeClaim(o as never).validate() },
  'apps/v1/Deployment': { validate: (o) => new Deployment(o as never).validate() },
  'autoscaling/v2/HorizontalPodAutoscaler': { validate: (o) => new HorizontalPodAutoscaler(o as never).validate() },
  'policy/v1/PodDisruptionBudget': { validate: (o) => new PodDisruptionBudget(o as never).validate() },
  'monitoring.coreos.com/v1/ServiceMonitor': { validate: (o) => new ServiceMonitor(o as never).validate() },
  'monitoring.coreos.com/v1/PrometheusRule': { validate: (o) => new PrometheusRule(o as never).validate() },
  'serving.kserve.io/v1alpha1/ClusterServingRuntime': { validate: validateServingRuntime },
};

function validateObject(o: Obj): void {
  const model = MODELS[`${o.apiVersion}/${o.kind}`];
  assert.ok(model !== undefined, `${o.kind} ${o.metadata.name}: no schema for ${o.apiVersion}/${o.kind}`);
  try {
    model.validate(o);
  } catch (err) {
    assert.fail(`${o.kind} ${o.metadata.name} does not validate: ${(err as Error).message}`);
  }
}

/**
 * KServe's ServingRuntimeSpec as its API reference lists it (serving.kserve.io/v1alpha1): known fields only,
 * protocol names from its enum, model formats with a name, and containers that are core/v1 Containers.
 */
const SERVING_RUNTIME_SPEC_FIELDS = new Set([
  'supportedModelFormats', 'multiModel', 'disabled', 'protocolVersions', 'containers', 'volumes', 'nodeSelector',
  'affinity', 'tolerations', 'labels', 'annotations', 'imagePullSecrets', 'builtInAdapter', 'grpcEndpoint',
  'grpcDataEndpoint', 'httpDataEndpoint', 'replicas', 'storageHelper', 'workerSpec', 'hostIPC', 'schedulerName',
]);
const KSERVE_PROTOCOLS = new Set(['v1', 'v2', 'grpc-v1', 'grpc-v2']);
const MODEL_FORMAT_FIELDS = new Set(['name', 'version', 'autoSelect', 'priority']);

function validateServingRuntime(o: Obj): void {
  const spec = o['spec'] as Json;
  assert.equal(typeof spec, 'object');
  for (const k of Object.keys(spec)) assert.ok(SERVING_RUNTIME_SPEC_FIELDS.has(k), `unknown ServingRuntimeSpec field ${k}`);
  for (const p of spec.protocolVersions ?? []) assert.ok(KSERVE_PROTOCOLS.has(p), `unknown protocol version ${p}`);
  for (const f of spec.supportedModelFormats ?? []) {
    for (const k of Object.keys(f)) assert.ok(MODEL_FORMAT_FIELDS.has(k), `unknown supportedModelFormats field ${k}`);
    assert.equal(typeof f.name, 'string');
  }
  assert.ok(Array.isArray(spec.containers) && spec.containers.length > 0, 'containers is required');
  for (const c of spec.containers) new Container(c).validate();
}

function byKind(objs: Obj[], kind: string): Obj[] {
  return objs.filter((o) => o.kind === kind);
}
function one(objs: Obj[], kind: string): Json {
  const hits = byKind(objs, kind);
  assert.equal(hits.length, 1, `expected one ${kind}, got ${hits.length}`);
  return hits[0];
}
function matches(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

/** The rtserve CLI's own check of a container's args: `serve` options that commander knows. */
function assertServeArgs(args: string[]): void {
  assert.equal(args[0], 'serve');
  const help = spawnSync(process.execPath, [join(root, 'bin', 'rtserve.js'), 'serve', '--help'], { encoding: 'utf8' }).stdout;
  for (const a of args.slice(1)) {
    if (!a.startsWith('--')) continue;
    const flag = a.split('=')[0] ?? a;
    assert.ok(help.includes(`${flag} `) || help.includes(`${flag}\n`), `rtserve serve has no option ${flag}`);
  }
}

describe('Kubernetes manifests (deploy/k8s)', { skip: needTool('kubectl', 'kubernetes-client') }, () => {
  const overlays = ['overlays/cpu', 'overlays/cuda'];
  const rendered = new Map<string, Obj[]>();
  let server: RunningServer;
  let tmp: string;

  before(async () => {
    for (const d of [...overlays, 'kserve', 'prometheus-adapter']) rendered.set(d, render(d));
    server = await startTestServer();
    tmp = await mkdtemp(join(tmpdir(), 'rtserve-k8s-'));
  });
  after(async () => {
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it('every rendered object validates against its schema', () => {
    for (const [dir, objs] of rendered) {
      if (dir === 'prometheus-adapter') continue;
      assert.ok(objs.length > 0, dir);
      for (const o of objs) validateObject(o);
    }
  });

  it('a broken object fails validation (the check can fail)', () => {
    const d = structuredClone(one(rendered.get('overlays/cpu') ?? [], 'Deployment'));
    d.spec.replicas = 'two';
    assert.throws(() => validateObject(d), /replicas must be integer/);
    const rt = structuredClone(one(rendered.get('kserve') ?? [], 'ClusterServingRuntime'));
    rt.spec.protocolVersion = ['v2'];
    assert.throws(() => validateObject(rt), /unknown ServingRuntimeSpec field protocolVersion/);
  });

  for (const overlay of overlays) {
    it(`${overlay}: objects reference each other consistently`, () => {
      const objs = rendered.get(overlay) ?? [];
      const dep = one(objs, 'Deployment');
      const pod = dep.spec.template;
      assert.equal(pod.spec.enableServiceLinks, false, 'service links would inject RTSERVE_* variables that rtserve rejects');
      assert.ok(matches(dep.spec.selector.matchLabels, pod.metadata.labels), 'Deployment selector matches its pods');
      const c = pod.spec.containers[0];
      assertServeArgs(c.args);
      const portNames = new Set(c.ports.map((p: Json) => p.name));
      for (const s of byKind(objs, 'Service') as Json[]) {
        assert.ok(matches(s.spec.selector, pod.metadata.labels), `Service ${s.metadata.name} selects the pods`);
        for (const p of s.spec.ports) assert.ok(portNames.has(p.targetPort), `Service ${s.metadata.name} targets port ${p.targetPort}`);
      }
      const services = new Set(byKind(objs, 'Service').map((s) => s.metadata.name));
      assert.deepEqual([...services].sort(), ['rtserve-grpc', 'rtserve-http', 'rtserve-metrics']);
      const pdb = one(objs, 'PodDisruptionBudget');
      assert.ok(matches(pdb.spec.selector.matchLabels, pod.metadata.labels), 'PDB selects the pods');
      const hpa = one(objs, 'HorizontalPodAutoscaler');
      assert.equal(hpa.spec.scaleTargetRef.name, dep.metadata.name);
      assert.equal(hpa.spec.scaleTargetRef.kind, 'Deployment');
      const sm = one(objs, 'ServiceMonitor');
      const metricsSvc = (byKind(objs, 'Service') as Json[]).filter((s) => matches(sm.spec.selector.matchLabels, s.metadata.labels));
      assert.deepEqual(metricsSvc.map((s) => s.metadata.name), ['rtserve-metrics'], 'ServiceMonitor selects the metrics Service only');
      assert.ok(metricsSvc[0].spec.ports.some((p: Json) => p.name === sm.spec.endpoints[0].port));
      // Volumes name objects that exist in the same rendering.
      const names = (kind: string): Set<string> => new Set(byKind(objs, kind).map((o) => o.metadata.name));
      for (const v of pod.spec.volumes) {
        if (v.configMap !== undefined) assert.ok(names('ConfigMap').has(v.configMap.name), `ConfigMap ${v.configMap.name}`);
        if (v.persistentVolumeClaim !== undefined) assert.ok(names('PersistentVolumeClaim').has(v.persistentVolumeClaim.claimName));
      }
      for (const m of c.volumeMounts) assert.ok(pod.spec.volumes.some((v: Json) => v.name === m.name), `volume ${m.name}`);
    });

    it(`${overlay}: the probes hit endpoints a real rtserve answers with 200`, async () => {
      const c = one(rendered.get(overlay) ?? [], 'Deployment').spec.template.spec.containers[0];
      for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        const get = c[probe]?.httpGet;
        assert.ok(get !== undefined, `${probe} is an httpGet probe`);
        const port = c.ports.find((p: Json) => p.name === get.port || p.containerPort === get.port);
        assert.equal(port?.containerPort, 8000, `${probe} probes the HTTP port`);
        const r = await fetch(`${server.httpUrl}${get.path}`);
        assert.equal(r.status, 200, `${probe} ${get.path}`);
      }
    });

    it(`${overlay}: the mounted server config loads with rtserve's own schema and matches the container ports`, async () => {
      const objs = rendered.get(overlay) ?? [];
      const cm = one(objs, 'ConfigMap');
      const file = join(tmp, 'rtserve.yaml');
      await writeFile(file, cm.data['rtserve.yaml']);
      const config = await loadServerConfig({ file });
      const c = one(objs, 'Deployment').spec.template.spec.containers[0];
      const ports = Object.fromEntries(c.ports.map((p: Json) => [p.name, p.containerPort]));
      assert.deepEqual([config.httpPort, config.grpcPort, config.metricsPort], [ports['http'], ports['grpc'], ports['metrics']]);
      assert.equal(config.host, '0.0.0.0');
      const mount = c.volumeMounts.find((m: Json) => m.name === 'model-repository');
      assert.deepEqual(config.modelRepository, [mount.mountPath]);
      const grace = one(objs, 'Deployment').spec.template.spec.terminationGracePeriodSeconds;
      assert.ok(config.exitTimeoutSecs < grace, 'rtserve drains before the kubelet sends SIGKILL');
    });
  }

  it('overlays/cuda requests a GPU; overlays/cpu does not', () => {
    const gpu = (overlay: string): unknown => one(rendered.get(overlay) ?? [], 'Deployment').spec.template.spec.containers[0].resources;
    assert.equal((gpu('overlays/cuda') as Json).requests['nvidia.com/gpu'], '1');
    assert.equal((gpu('overlays/cuda') as Json).limits['nvidia.com/gpu'], '1');
    assert.equal((gpu('overlays/cpu') as Json).requests['nvidia.com/gpu'], undefined);
    assert.match(one(rendered.get('overlays/cuda') ?? [], 'Deployment').spec.template.spec.containers[0].image, /:cuda$/);
  });

  it("the HPA scales on the prometheus-adapter rule's metric, computed from nv_inference_queue_duration_us", () => {
    const cm = one(rendered.get('prometheus-adapter') ?? [], 'ConfigMap');
    const rules = (parseYaml(cm.data['config.yaml']) as Json).rules as Json[];
    const rule = rules.find((r) => String(r.seriesQuery).includes('nv_inference_queue_duration_us'));
    assert.ok(rule !== undefined);
    for (const overlay of overlays) {
      const hpa = one(rendered.get(overlay) ?? [], 'HorizontalPodAutoscaler');
      const names = hpa.spec.metrics.filter((m: Json) => m.type === 'Pods').map((m: Json) => m.pods.metric.name);
      assert.deepEqual(names, [rule.name.as]);
    }
    // The metrics the rule and the alerts read are ones rtserve exports.
    for (const name of ['nv_inference_queue_duration_us', 'nv_inference_request_success']) assert.match(rule.metricsQuery, new RegExp(name));
  });

  it('the metrics the alerts and the adapter use are on a real /metrics', async () => {
    const text = await (await fetch(`${server.metricsUrl ?? server.httpUrl}/metrics`)).text();
    const rule = one(rendered.get('overlays/cpu') ?? [], 'PrometheusRule');
    const exprs: string[] = rule.spec.groups.flatMap((g: Json) => g.rules.map((r: Json) => r.expr as string));
    const used = new Set(exprs.flatMap((e) => [...e.matchAll(/\b((?:nv|rtserve)_[a-z_]+?)(?:_bucket)?\{/g)].map((m) => m[1] ?? '')));
    assert.ok(used.size >= 4);
    for (const name of used) assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), `${name} is exported`);
  });

  it('the alert rules pass promtool', { skip: needTool('promtool', 'prometheus') }, async () => {
    const rule = one(rendered.get('overlays/cpu') ?? [], 'PrometheusRule');
    const file = join(tmp, 'rules.json');
    await writeFile(file, JSON.stringify({ groups: rule.spec.groups }));
    const r = spawnSync('promtool', ['check', 'rules', file], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });

  it('the KServe runtime serves onnx over protocol v2 REST and gRPC with valid rtserve arguments', () => {
    const rt = one(rendered.get('kserve') ?? [], 'ClusterServingRuntime');
    assert.ok(rt.spec.supportedModelFormats.some((f: Json) => f.name === 'onnx' && f.autoSelect === true));
    assert.deepEqual([...rt.spec.protocolVersions].sort(), ['grpc-v2', 'v2']);
    const c = rt.spec.containers[0];
    assert.equal(c.name, 'kserve-container');
    assertServeArgs(c.args);
    assert.ok(c.args.includes('--model-repository=/mnt/models'), 'KServe mounts the model at /mnt/models');
    assert.ok(c.args.includes('--http-port=8080') && c.ports[0].containerPort === 8080, 'KServe sends REST to 8080');
  });
});
