/**
 * deploy/compose: the laptop stack parses (the `yaml` package, with YAML merge keys as compose reads them) and its
 * references resolve: every bind-mounted file exists, the build context has the Dockerfile, depends_on names
 * services, nginx's upstream hosts and Prometheus's targets are the replica services on their real ports, the
 * replicas' config file loads with rtserve's own schema (shared state in the stack's Redis), Grafana's
 * provisioning points at the mounted dashboard, and the Prometheus rules file equals the Kubernetes
 * PrometheusRule's groups (and passes promtool). Where `podman-compose` exists it must accept the file too.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { loadServerConfig } from '../../../src/config/load-server-config.ts';
import { needTool } from '../ops/helpers.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const composeDir = join(root, 'deploy', 'compose');
const composeFile = join(composeDir, 'compose.yaml');

interface Service {
  image?: string;
  build?: { context: string; dockerfile?: string };
  command?: string[];
  volumes?: string[];
  ports?: string[];
  depends_on?: string[] | Record<string, { condition: string }>;
  environment?: Record<string, string>;
}
interface Compose {
  services: Record<string, Service>;
}

const compose = parseYaml(readFileSync(composeFile, 'utf8'), { merge: true }) as Compose;
const services = compose.services;
const replicas = Object.keys(services).filter((n) => /^rtserve-\d+$/.test(n));

/** host path → container path of a service's bind mounts (relative host paths are relative to the compose file). */
function mounts(s: Service): Map<string, string> {
  const out = new Map<string, string>();
  for (const v of s.volumes ?? []) {
    const [host, container] = v.split(':');
    assert.ok(host !== undefined && container !== undefined, `volume ${v}`);
    out.set(resolve(composeDir, host), container);
  }
  return out;
}

describe('compose stack (deploy/compose)', () => {
  it('has three rtserve replicas, nginx, Redis, Prometheus and Grafana, each with an image', () => {
    assert.deepEqual(replicas, ['rtserve-1', 'rtserve-2', 'rtserve-3']);
    for (const name of ['redis', 'nginx', 'prometheus', 'grafana']) assert.ok(services[name] !== undefined, name);
    for (const [name, s] of Object.entries(services)) assert.ok(typeof s.image === 'string' && s.image !== '', `${name} has an image`);
  });

  it('every bind-mounted file, build context and dependency exists', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const host of mounts(s).keys()) assert.ok(existsSync(host), `${name} mounts ${host}, which does not exist`);
      if (s.build !== undefined)
        assert.ok(existsSync(join(resolve(composeDir, s.build.context), s.build.dockerfile ?? 'Dockerfile')), `${name} build`);
      const deps = Array.isArray(s.depends_on) ? s.depends_on : Object.keys(s.depends_on ?? {});
      for (const d of deps) assert.ok(services[d] !== undefined, `${name} depends on unknown service ${d}`);
      for (const p of s.ports ?? []) assert.match(p, /^\d+:\d+$/, `${name} port ${p}`);
    }
  });

  it("the replicas' config loads with rtserve's schema and shares state in the stack's Redis", async () => {
    for (const name of replicas) {
      const s = services[name] as Service;
      assert.deepEqual(s.command?.slice(0, 3), ['serve', '--config', '/etc/rtserve/rtserve.yaml']);
      const file = [...mounts(s)].find(([, c]) => c === '/etc/rtserve/rtserve.yaml')?.[0];
      assert.ok(file !== undefined);
      const config = await loadServerConfig({ file });
      assert.equal(config.host, '0.0.0.0');
      assert.equal(config.sharedState.store, 'redis');
      assert.equal(new URL(config.sharedState.redisUrl).hostname, 'redis');
      assert.equal(new URL(config.rateLimit.redisUrl).hostname, 'redis');
    }
  });

  it("nginx's upstreams are the replicas' HTTP and gRPC ports", () => {
    const conf = [...mounts(services['nginx'] as Service)].find(([, c]) => c.startsWith('/etc/nginx/conf.d/'))?.[0];
    assert.ok(conf !== undefined);
    const text = readFileSync(conf, 'utf8');
    const servers = [...text.matchAll(/^\s*server\s+([\w.-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    assert.deepEqual(servers.sort(), [...replicas.map((r) => `${r}:8000`), ...replicas.map((r) => `${r}:8001`)].sort());
    assert.match(text, /grpc_pass grpc:\/\/rtserve_grpc;/);
    assert.match(text, /proxy_set_header Upgrade \$http_upgrade;/);
    assert.match(text, /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  });

  it('Prometheus scrapes every replica and loads the alert rules, which equal the PrometheusRule', () => {
    const m = mounts(services['prometheus'] as Service);
    const promFile = [...m].find(([, c]) => c === '/etc/prometheus/prometheus.yml')?.[0];
    assert.ok(promFile !== undefined);
    const prom = parseYaml(readFileSync(promFile, 'utf8')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const job = prom.scrape_configs.find((j) => j.job_name === 'rtserve-metrics');
    assert.deepEqual(
      job?.static_configs.flatMap((c) => c.targets),
      replicas.map((r) => `${r}:8002`),
    );
    for (const rf of prom.rule_files) assert.ok([...m.values()].includes(rf), `rule file ${rf} is mounted`);
    const rulesFile = [...m].find(([, c]) => c === prom.rule_files[0])?.[0] as string;
    const rules = parseYaml(readFileSync(rulesFile, 'utf8')) as { groups: unknown };
    const k8sRule = parseYaml(readFileSync(join(root, 'deploy', 'k8s', 'base', 'prometheusrule.yaml'), 'utf8')) as { spec: { groups: unknown } };
    assert.deepEqual(rules.groups, k8sRule.spec.groups, 'deploy/prometheus/rtserve-alerts.yml and the PrometheusRule carry the same alerts');
  });

  it('the rules file passes promtool', { skip: needTool('promtool', 'prometheus') }, () => {
    const r = spawnSync('promtool', ['check', 'rules', join(root, 'deploy', 'prometheus', 'rtserve-alerts.yml')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });

  it("Grafana provisions the stack's Prometheus and the shipped dashboard", () => {
    const m = mounts(services['grafana'] as Service);
    const provisioning = [...m].find(([, c]) => c === '/etc/grafana/provisioning')?.[0] as string;
    const ds = parseYaml(readFileSync(join(provisioning, 'datasources', 'prometheus.yaml'), 'utf8')) as {
      datasources: { type: string; url: string; isDefault: boolean }[];
    };
    assert.equal(ds.datasources[0]?.type, 'prometheus');
    assert.equal(new URL(ds.datasources[0]?.url ?? '').hostname, 'prometheus');
    assert.equal(ds.datasources[0]?.isDefault, true, "the dashboard's datasource variable picks the default");
    const provider = parseYaml(readFileSync(join(provisioning, 'dashboards', 'rtserve.yaml'), 'utf8')) as {
      providers: { options: { path: string } }[];
    };
    const dashPath = provider.providers[0]?.options.path as string;
    const dashboards = [...m].filter(([, c]) => dirname(c) === dashPath);
    assert.equal(dashboards.length, 1, 'the dashboard file is mounted where the provider looks');
    const dashboard = JSON.parse(readFileSync(dashboards[0]?.[0] as string, 'utf8')) as { uid: string; panels: unknown[] };
    assert.equal(dashboard.uid, 'rtserve-overview');
    assert.ok(dashboard.panels.length > 0);
  });

  it('podman-compose accepts the file and would start every service (dry run: nothing is pulled or started)', {
    skip: needTool('podman-compose', 'podman-compose'),
  }, () => {
    // Debian's podman-compose has no `config` command; `--dry-run up` parses the file and prints the podman commands.
    const r = spawnSync('podman-compose', ['--dry-run', '-f', composeFile, 'up', '-d'], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const services = Object.keys((parseYaml(readFileSync(composeFile, 'utf8'), { merge: true }) as { services: Record<string, unknown> }).services);
    for (const name of services) assert.match(r.stdout, new RegExp(`podman run --name=compose_${name}_1 `), `service ${name} is started`);
  });
});
