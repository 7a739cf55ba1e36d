/**
 * deploy/k8s: every kustomization renders with `kubectl kustomize` (Debian's kubernetes-client), every object
 * validates offline against the Kubernetes OpenAPI schemas (kubernetes-models) or its CRD's schema
 * (@kubernetes-models/prometheus-operator; KServe's ClusterServingRuntime by the fields KServe documents, its
 * containers as core/v1 Containers), and the objects agree with each other and with rtserve itself: selectors
 * match the pod labels, named ports exist, the probes answer 200 on a real rtserve, the mounted config file loads
 * with rtserve's own schema, the alert expressions pass promtool, and the HPA's metric is the adapter rule's.
 * kustomize renders them without deprecation warnings; pods get an in-memory /dev/shm and a CPU limit (what
 * `--workers auto` counts); the KServe runtime is chosen by name, never auto-selected over another runtime.
 * The model repository is the pod's emptyDir, filled by a model-fill init container from a model image
 * (deploy/k8s/model-image/Dockerfile): its command runs here on such an image's files, and rtserve serves the
 * result; an image with no models fails the fill. Helm is not used (docs/deploy.md says why).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import {
  ConfigMap,
  Container,
  PersistentVolumeClaim,
  Service,
  Volume,
  type IConfigMap,
  type IContainer,
  type IService,
  type IVolume,
} from 'kubernetes-models/v1';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import {
  PrometheusRule,
  ServiceMonitor,
  type IPrometheusRule,
  type IServiceMonitor,
} from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import { startTestServer } from '../../helpers/server.ts';
import type { RunningServer } from '../../../src/app/rtserve-server.ts';
import { needTool } from '../ops/helpers.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const k8s = join(root, 'deploy', 'k8s');

type Obj = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; [k: string]: unknown };

/** The KServe ServingRuntimeSpec fields this test reads. */
interface IClusterServingRuntime {
  metadata: { name: string };
  spec: {
    supportedModelFormats: { name: string; version?: string; autoSelect?: boolean; priority?: number }[];
    protocolVersions: string[];
    containers: IContainer[];
    volumes?: IVolume[];
    [k: string]: unknown;
  };
}

/** Rendered objects by kind, typed by the kubernetes-models interfaces (the schemas validated them first). */
interface Kinds {
  Deployment: IDeployment;
  Service: IService;
  ConfigMap: IConfigMap;
  PodDisruptionBudget: IPodDisruptionBudget;
  HorizontalPodAutoscaler: IHorizontalPodAutoscaler;
  ServiceMonitor: IServiceMonitor;
  PrometheusRule: IPrometheusRule;
  ClusterServingRuntime: IClusterServingRuntime;
}

/** `v`, asserted present. */
function must<T>(v: T | null | undefined, what: string): T {
  assert.ok(v !== undefined && v !== null, `${what} is missing`);
  return v;
}

function render(dir: string): Obj[] {
  const r = spawnSync('kubectl', ['kustomize', join(k8s, dir)], { encoding: 'utf8' });
  assert.equal(r.status, 0, `kubectl kustomize ${dir} failed: ${r.stderr}`);
  // kustomize warns on stderr about deprecated fields (commonLabels, bases, patchesStrategicMerge, ...).
  assert.doesNotMatch(r.stderr, /warning/i, `kubectl kustomize ${dir} warns`);
  return parseAllDocuments(r.stdout).map((d) => d.toJSON() as Obj);
}

/** The container mounts an in-memory emptyDir at /dev/shm (a container runtime's own /dev/shm is 64 MiB). */
function assertMemoryShm(c: IContainer, volumes: readonly IVolume[], what: string): void {
  const mount = must(
    (c.volumeMounts ?? []).find((m) => m.mountPath === '/dev/shm'),
    `${what}: a /dev/shm mount`,
  );
  const volume = must(
    volumes.find((v) => v.name === mount.name),
    `${what}: volume ${mount.name}`,
  );
  assert.equal(volume.emptyDir?.medium, 'Memory', `${what}: /dev/shm is an emptyDir in memory`);
  assert.ok(volume.emptyDir?.sizeLimit !== undefined, `${what}: /dev/shm has a size limit (it counts against the memory limit)`);
}

/** A CPU limit, which `--workers auto` reads back as the cgroup's cpu.max (src/util/cpu-quota.ts). */
function assertCpuLimit(c: IContainer, what: string): void {
  assert.ok(c.resources?.limits?.['cpu'] !== undefined, `${what}: limits.cpu is set (without it --workers auto counts the node's cores)`);
}

/** The Deployment's model-fill init container, its environment, and where it mounts the model-repository volume. */
function modelFillOf(spec: { initContainers?: IContainer[] }): { init: IContainer; env: Record<string, string>; target: string } {
  const init = must(
    (spec.initContainers ?? []).find((i) => i.name === 'model-fill'),
    'the model-fill init container',
  );
  const env = Object.fromEntries((init.env ?? []).map((e) => [e.name, e.value ?? '']));
  const mount = must(
    (init.volumeMounts ?? []).find((m) => m.name === 'model-repository'),
    'model-fill: the model-repository mount',
  );
  return { init, env, target: mount.mountPath };
}

/** Where deploy/k8s/model-image/Dockerfile puts the repository in the image (its COPY destination). */
function modelImageDir(): string {
  const dockerfile = readFileSync(join(k8s, 'model-image', 'Dockerfile'), 'utf8');
  return must(/^COPY\s.*\s(\/\S+)\s*$/m.exec(dockerfile)?.[1], 'the COPY into the model image');
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
  'supportedModelFormats',
  'multiModel',
  'disabled',
  'protocolVersions',
  'containers',
  'volumes',
  'nodeSelector',
  'affinity',
  'tolerations',
  'labels',
  'annotations',
  'imagePullSecrets',
  'builtInAdapter',
  'grpcEndpoint',
  'grpcDataEndpoint',
  'httpDataEndpoint',
  'replicas',
  'storageHelper',
  'workerSpec',
  'hostIPC',
  'schedulerName',
]);
const KSERVE_PROTOCOLS = new Set(['v1', 'v2', 'grpc-v1', 'grpc-v2']);
const MODEL_FORMAT_FIELDS = new Set(['name', 'version', 'autoSelect', 'priority']);

function validateServingRuntime(o: Obj): void {
  const spec = o['spec'] as IClusterServingRuntime['spec'];
  assert.equal(typeof spec, 'object');
  for (const k of Object.keys(spec)) assert.ok(SERVING_RUNTIME_SPEC_FIELDS.has(k), `unknown ServingRuntimeSpec field ${k}`);
  for (const p of spec.protocolVersions ?? []) assert.ok(KSERVE_PROTOCOLS.has(p), `unknown protocol version ${p}`);
  for (const f of spec.supportedModelFormats ?? []) {
    for (const k of Object.keys(f)) assert.ok(MODEL_FORMAT_FIELDS.has(k), `unknown supportedModelFormats field ${k}`);
    assert.equal(typeof f.name, 'string');
  }
  assert.ok(Array.isArray(spec.containers) && spec.containers.length > 0, 'containers is required');
  for (const c of spec.containers) new Container(c).validate();
  for (const v of spec.volumes ?? []) new Volume(v).validate();
}

function byKind<K extends keyof Kinds>(objs: Obj[], kind: K): Kinds[K][] {
  return objs.filter((o) => o.kind === kind) as unknown as Kinds[K][];
}
function one<K extends keyof Kinds>(objs: Obj[], kind: K): Kinds[K] {
  const hits = byKind(objs, kind);
  assert.equal(hits.length, 1, `expected one ${kind}, got ${hits.length}`);
  return hits[0] as Kinds[K];
}
function matches(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  return Object.entries(must(selector, 'selector')).every(([k, v]) => labels?.[k] === v);
}
/** The Deployment's pod template and its one container. */
function podOf(objs: Obj[]): {
  dep: IDeployment;
  pod: NonNullable<IDeployment['spec']>['template'];
  spec: NonNullable<NonNullable<IDeployment['spec']>['template']['spec']>;
  c: IContainer;
} {
  const dep = one(objs, 'Deployment');
  const pod = must(dep.spec, 'Deployment spec').template;
  const spec = must(pod.spec, 'pod spec');
  return { dep, pod, spec, c: must(spec.containers[0], 'container') };
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
    const d = structuredClone(rendered.get('overlays/cpu')?.find((o) => o.kind === 'Deployment')) as Obj;
    (d['spec'] as Record<string, unknown>)['replicas'] = 'two';
    assert.throws(() => validateObject(d), /replicas must be integer/);
    const rt = structuredClone(rendered.get('kserve')?.find((o) => o.kind === 'ClusterServingRuntime')) as Obj;
    (rt['spec'] as Record<string, unknown>)['protocolVersion'] = ['v2'];
    assert.throws(() => validateObject(rt), /unknown ServingRuntimeSpec field protocolVersion/);
  });

  for (const overlay of overlays) {
    it(`${overlay}: objects reference each other consistently`, () => {
      const objs = rendered.get(overlay) ?? [];
      const { dep, pod, spec, c } = podOf(objs);
      assert.equal(spec.enableServiceLinks, false, 'no service-link variables (RTSERVE_HTTP_PORT=tcp://…) in the pod');
      assert.ok(matches(dep.spec?.selector.matchLabels, pod.metadata?.labels), 'Deployment selector matches its pods');
      assertServeArgs(must(c.args, 'args'));
      const portNames = new Set((c.ports ?? []).map((p) => p.name));
      for (const svc of byKind(objs, 'Service')) {
        assert.ok(matches(svc.spec?.selector, pod.metadata?.labels), `Service ${svc.metadata?.name} selects the pods`);
        for (const p of svc.spec?.ports ?? [])
          assert.ok(portNames.has(String(p.targetPort)), `Service ${svc.metadata?.name} targets port ${p.targetPort}`);
      }
      const services = byKind(objs, 'Service').map((svc) => svc.metadata?.name);
      assert.deepEqual(services.sort(), ['rtserve-grpc', 'rtserve-http', 'rtserve-metrics']);
      const pdb = one(objs, 'PodDisruptionBudget');
      assert.ok(matches(pdb.spec?.selector?.matchLabels, pod.metadata?.labels), 'PDB selects the pods');
      const hpa = one(objs, 'HorizontalPodAutoscaler');
      assert.equal(hpa.spec?.scaleTargetRef.name, dep.metadata?.name);
      assert.equal(hpa.spec?.scaleTargetRef.kind, 'Deployment');
      const sm = one(objs, 'ServiceMonitor');
      const metricsSvc = byKind(objs, 'Service').filter((svc) => matches(sm.spec.selector.matchLabels, svc.metadata?.labels));
      assert.deepEqual(
        metricsSvc.map((svc) => svc.metadata?.name),
        ['rtserve-metrics'],
        'ServiceMonitor selects the metrics Service only',
      );
      assert.ok(metricsSvc[0]?.spec?.ports?.some((p) => p.name === sm.spec.endpoints?.[0]?.port));
      // Volumes name objects that exist in the same rendering.
      const names = (kind: string): Set<string> => new Set(objs.filter((o) => o.kind === kind).map((o) => o.metadata.name));
      for (const v of spec.volumes ?? []) {
        if (v.configMap !== undefined) assert.ok(names('ConfigMap').has(must(v.configMap.name, 'configMap name')), `ConfigMap ${v.configMap.name}`);
        if (v.persistentVolumeClaim !== undefined) assert.ok(names('PersistentVolumeClaim').has(v.persistentVolumeClaim.claimName));
      }
      for (const m of c.volumeMounts ?? [])
        assert.ok(
          (spec.volumes ?? []).some((v) => v.name === m.name),
          `volume ${m.name}`,
        );
    });

    it(`${overlay}: /dev/shm in memory, and a CPU limit for --workers auto`, () => {
      const { spec, c } = podOf(rendered.get(overlay) ?? []);
      assertMemoryShm(c, spec.volumes ?? [], overlay);
      assertCpuLimit(c, overlay);
    });

    it(`${overlay}: a model-fill init container fills the model-repository emptyDir that the server reads`, () => {
      const objs = rendered.get(overlay) ?? [];
      const { spec, c } = podOf(objs);
      const volume = must(
        (spec.volumes ?? []).find((v) => v.name === 'model-repository'),
        'the model-repository volume',
      );
      assert.ok(volume.emptyDir !== undefined, "the repository is the pod's own emptyDir, not a claim someone must fill");
      assert.deepEqual(
        objs.filter((o) => o.kind === 'PersistentVolumeClaim'),
        [],
      );
      const { init, env, target } = modelFillOf(spec);
      assert.equal(env['MODEL_TARGET'], target, 'the fill writes where it mounts the volume');
      assert.equal(normalize(`${env['MODEL_SOURCE']}/`), normalize(`${modelImageDir()}/`), 'the fill reads where the model image has the repository');
      assert.notEqual((init.volumeMounts ?? []).find((m) => m.name === 'model-repository')?.readOnly, true);
      assert.equal((c.volumeMounts ?? []).find((m) => m.name === 'model-repository')?.readOnly, true, 'the server mounts it read-only');
      assert.equal(init.securityContext?.readOnlyRootFilesystem, true);
      assert.deepEqual(init.securityContext?.capabilities?.drop, ['ALL']);
      assertCpuLimit(init, `${overlay} model-fill`);
    });

    it(`${overlay}: the probes hit endpoints a real rtserve answers with 200`, async () => {
      const { c } = podOf(rendered.get(overlay) ?? []);
      for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe]) {
        const get = must(probe?.httpGet, 'an httpGet probe');
        const port = (c.ports ?? []).find((p) => p.name === get.port || p.containerPort === get.port);
        assert.equal(port?.containerPort, 8000, `${get.path} probes the HTTP port`);
        const r = await fetch(`${server.httpUrl}${get.path}`);
        assert.equal(r.status, 200, `probe ${get.path}`);
      }
    });

    it(`${overlay}: the mounted server config loads with rtserve's own schema and matches the container ports`, async () => {
      const objs = rendered.get(overlay) ?? [];
      const cm = one(objs, 'ConfigMap');
      const file = join(tmp, 'rtserve.yaml');
      await writeFile(file, must(cm.data?.['rtserve.yaml'], 'rtserve.yaml in the ConfigMap'));
      const config = await loadServerConfig({ file });
      const { spec, c } = podOf(objs);
      const ports = Object.fromEntries((c.ports ?? []).map((p) => [p.name, p.containerPort]));
      assert.deepEqual([config.httpPort, config.grpcPort, config.metricsPort], [ports['http'], ports['grpc'], ports['metrics']]);
      assert.equal(config.host, '0.0.0.0');
      const mount = must(
        (c.volumeMounts ?? []).find((m) => m.name === 'model-repository'),
        'model-repository mount',
      );
      assert.deepEqual(config.modelRepository, [mount.mountPath]);
      assert.ok(config.exitTimeoutSecs < must(spec.terminationGracePeriodSeconds, 'grace period'), 'rtserve drains before the kubelet sends SIGKILL');
    });
  }

  it('overlays/cuda requests a GPU; overlays/cpu does not', () => {
    const resources = (overlay: string): NonNullable<IContainer['resources']> => must(podOf(rendered.get(overlay) ?? []).c.resources, 'resources');
    assert.equal(resources('overlays/cuda').requests?.['nvidia.com/gpu'], '1');
    assert.equal(resources('overlays/cuda').limits?.['nvidia.com/gpu'], '1');
    assert.equal(resources('overlays/cpu').requests?.['nvidia.com/gpu'], undefined);
    assert.match(must(podOf(rendered.get('overlays/cuda') ?? []).c.image, 'image'), /:cuda$/);
  });

  it("the model-fill command copies a model image's repository into the volume, which rtserve serves; an empty image fails", async () => {
    const { spec } = podOf(rendered.get('overlays/cpu') ?? []);
    const { init, env } = modelFillOf(spec);
    const argv = [...must(init.command, 'command'), ...(init.args ?? [])];
    // The container's paths under a temporary root: the model image's files at MODEL_SOURCE, the volume at MODEL_TARGET.
    const fill = (rootfs: string) =>
      spawnSync(argv[0] as string, argv.slice(1), {
        encoding: 'utf8',
        env: {
          PATH: process.env['PATH'],
          MODEL_SOURCE: join(rootfs, must(env['MODEL_SOURCE'], 'MODEL_SOURCE')),
          MODEL_TARGET: join(rootfs, must(env['MODEL_TARGET'], 'MODEL_TARGET')),
        },
      });
    const image = join(tmp, 'model-image');
    await cp(join(root, 'models', 'simple'), join(image, modelImageDir(), 'simple'), { recursive: true });
    await mkdir(join(image, must(env['MODEL_TARGET'], 'MODEL_TARGET')), { recursive: true });
    const r = fill(image);
    assert.equal(r.status, 0, r.stderr);
    const filled = await startTestServer({ modelRepository: [join(image, must(env['MODEL_TARGET'], 'MODEL_TARGET'))], strictReadiness: true });
    try {
      assert.equal((await fetch(`${filled.httpUrl}/v2/health/ready`)).status, 200, 'every model in the filled repository is ready');
      assert.equal((await fetch(`${filled.httpUrl}/v2/models/simple/ready`)).status, 200, 'the model from the image is served');
    } finally {
      await filled.close();
    }
    const empty = join(tmp, 'empty-image');
    await mkdir(join(empty, must(env['MODEL_SOURCE'], 'MODEL_SOURCE')), { recursive: true });
    await mkdir(join(empty, must(env['MODEL_TARGET'], 'MODEL_TARGET')), { recursive: true });
    const e = fill(empty);
    assert.notEqual(e.status, 0, 'an image without models stops the pod before the server starts');
    assert.match(e.stderr, /model-fill: nothing under .* in the model image/);
  });

  it("the HPA scales on the prometheus-adapter rule's metric, computed from nv_inference_queue_duration_us", () => {
    const cm = one(rendered.get('prometheus-adapter') ?? [], 'ConfigMap');
    type AdapterRule = { seriesQuery: string; name: { as: string }; metricsQuery: string };
    const rules = (parseYaml(must(cm.data?.['config.yaml'], 'config.yaml')) as { rules: AdapterRule[] }).rules;
    const rule = must(
      rules.find((r) => r.seriesQuery.includes('nv_inference_queue_duration_us')),
      'the queue-time rule',
    );
    for (const overlay of overlays) {
      const hpa = one(rendered.get(overlay) ?? [], 'HorizontalPodAutoscaler');
      const names = (hpa.spec?.metrics ?? []).filter((m) => m.type === 'Pods').map((m) => m.pods?.metric.name);
      assert.deepEqual(names, [rule.name.as]);
    }
    // The metrics the rule and the alerts read are ones rtserve exports.
    for (const name of ['nv_inference_queue_duration_us', 'nv_inference_request_success']) assert.match(rule.metricsQuery, new RegExp(name));
  });

  it('the metrics the alerts and the adapter use are on a real /metrics', async () => {
    const text = await (await fetch(`${server.metricsUrl ?? server.httpUrl}/metrics`)).text();
    const rule = one(rendered.get('overlays/cpu') ?? [], 'PrometheusRule');
    const exprs = (rule.spec.groups ?? []).flatMap((g) => (g.rules ?? []).map((r) => String(r.expr)));
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

  it("the KServe runtime does not take other runtimes' models: InferenceServices get it by name only", () => {
    const rt = one(rendered.get('kserve') ?? [], 'ClusterServingRuntime');
    // KServe auto-selects, among the runtimes with autoSelect for a format, the one of highest priority: with
    // autoSelect on, rtserve would compete with Triton's kserve-tritonserver (onnx, priority 1) for every onnx model.
    assert.deepEqual(
      rt.spec.supportedModelFormats.filter((f) => f.autoSelect === true || f.priority !== undefined),
      [],
    );
  });

  it('the KServe runtime has /dev/shm in memory and a CPU limit for --workers auto', () => {
    const rt = one(rendered.get('kserve') ?? [], 'ClusterServingRuntime');
    const c = must(rt.spec.containers[0], 'container');
    assertMemoryShm(c, rt.spec.volumes ?? [], 'kserve');
    assertCpuLimit(c, 'kserve');
  });

  it('the KServe runtime serves onnx over protocol v2 REST and gRPC with valid rtserve arguments', () => {
    const rt = one(rendered.get('kserve') ?? [], 'ClusterServingRuntime');
    assert.ok(rt.spec.supportedModelFormats.some((f) => f.name === 'onnx'));
    assert.deepEqual([...rt.spec.protocolVersions].sort(), ['grpc-v2', 'v2']);
    const c = must(rt.spec.containers[0], 'container');
    assert.equal(c.name, 'kserve-container');
    const args = must(c.args, 'args');
    assertServeArgs(args);
    assert.ok(args.includes('--model-repository=/mnt/models'), 'KServe mounts the model at /mnt/models');
    assert.ok(args.includes('--http-port=8080') && c.ports?.[0]?.containerPort === 8080, 'KServe sends REST to 8080');
  });
});
