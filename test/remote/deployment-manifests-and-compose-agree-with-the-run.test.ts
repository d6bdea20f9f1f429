// The deployment files (deploy/k8s kustomize manifests, compose.yaml) validated offline: parsed with
// the `yaml` package and checked against minimal schemas of the Kubernetes objects and the Compose
// file written here with zod (no schema download at test time), and against tti itself: the
// supervisor's arguments make a valid config, its Service exposes exactly the ports that config
// listens on, and every worker joins that Service with a credential from a mounted Secret.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { listenPorts } from '../../src/actors/supervisor/endpoints.js';
import { loadConfig } from '../../src/config/index.js';
import { defaultConfigFile, projectRoot } from '../../src/util/paths.js';

const k8sDir = path.join(projectRoot, 'deploy', 'k8s');

const Labels = z.record(z.string(), z.string());
const Metadata = z.object({
  name: z.string().regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/),
  labels: Labels.optional(),
});
const Container = z.object({
  name: z.string().min(1),
  image: z.string().min(1),
  args: z.array(z.string()).optional(),
  command: z.array(z.string()).optional(),
  ports: z.array(z.object({ containerPort: z.number().int().positive() })).optional(),
  volumeMounts: z.array(z.object({ name: z.string(), mountPath: z.string().startsWith('/') })).optional(),
});
const PodSpec = z.object({
  containers: z.array(Container).min(1),
  initContainers: z.array(Container).optional(),
  volumes: z.array(z.object({ name: z.string() }).passthrough()).optional(),
});
const Workload = z.object({
  selector: z.object({ matchLabels: Labels }),
  replicas: z.number().int().nonnegative(),
  template: z.object({ metadata: z.object({ labels: Labels }), spec: PodSpec }),
});
const Objects = z.discriminatedUnion('kind', [
  z.object({ apiVersion: z.literal('v1'), kind: z.literal('Namespace'), metadata: Metadata }),
  z.object({
    apiVersion: z.literal('v1'),
    kind: z.literal('Service'),
    metadata: Metadata,
    spec: z.object({
      selector: Labels,
      ports: z.array(z.object({ name: z.string(), port: z.number().int().min(1).max(65535) })).min(1),
    }),
  }),
  z.object({
    apiVersion: z.literal('apps/v1'),
    kind: z.literal('Deployment'),
    metadata: Metadata,
    spec: Workload,
  }),
  z.object({
    apiVersion: z.literal('apps/v1'),
    kind: z.literal('StatefulSet'),
    metadata: Metadata,
    spec: Workload.extend({
      serviceName: z.string(),
      volumeClaimTemplates: z
        .array(
          z.object({
            metadata: Metadata,
            spec: z.object({ accessModes: z.array(z.string()) }).passthrough(),
          }),
        )
        .min(1),
    }),
  }),
]);
type K8sObject = z.infer<typeof Objects>;
const Kustomization = z.object({
  apiVersion: z.literal('kustomize.config.k8s.io/v1beta1'),
  kind: z.literal('Kustomization'),
  namespace: z.string().optional(),
  resources: z.array(z.string()).min(1),
  secretGenerator: z.array(z.object({ name: z.string(), files: z.array(z.string()).min(1) })).optional(),
});
const Compose = z.object({
  name: z.string().optional(),
  services: z.record(
    z.string(),
    z
      .object({
        image: z.string().optional(),
        build: z.union([z.string(), z.object({}).passthrough()]).optional(),
        command: z.array(z.string()).optional(),
        ports: z.array(z.string()).optional(),
        volumes: z.array(z.string()).optional(),
        depends_on: z.array(z.string()).optional(),
      })
      .passthrough(),
  ),
  volumes: z.record(z.string(), z.unknown()).optional(),
});

function yamlDocs(file: string): unknown[] {
  // Compose files use YAML merge keys (<<: *anchor), as Docker Compose reads them.
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { merge: true });
  for (const d of docs) assert.deepEqual(d.errors, [], `${file}: ${d.errors.join('; ')}`);
  return docs.map((d) => d.toJS() as unknown);
}

function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  assert.ok(result.success, `${where}: ${result.success ? '' : JSON.stringify(result.error.issues[0])}`);
  return result.data as T;
}

/** `--name=value` and `--set=k=v` arguments of a tti-run command line. */
function flags(args: readonly string[]) {
  const sets: string[] = [];
  const named = new Map<string, string>();
  for (const a of args) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(a);
    if (m === null) continue;
    if (m[1] === 'set') sets.push(m[2] ?? '');
    else named.set(m[1] ?? '', m[2] ?? 'true');
  }
  return { sets, named };
}

function supervisorPorts(args: readonly string[]) {
  const { sets, named } = flags(args);
  const listen = named.get('listen');
  assert.ok(listen, 'the supervisor listens');
  const config = loadConfig(defaultConfigFile, [...sets, `transport.listen=${listen}`]);
  const ids = (n: number, role: string) => Array.from({ length: n }, (_, i) => `${role}-${i}`);
  const ports = listenPorts(config, {
    inference: ids(config.workers.inference, 'inference'),
    fault: ids(config.workers.fault, 'fault'),
  });
  assert.ok(ports);
  return { config, ports };
}

test('the kustomize manifests are valid objects and agree with the run they deploy', () => {
  const kustomization = parse(
    Kustomization,
    yamlDocs(path.join(k8sDir, 'kustomization.yaml'))[0],
    'kustomization.yaml',
  );
  const objects: K8sObject[] = [];
  for (const resource of kustomization.resources) {
    const file = path.join(k8sDir, resource);
    assert.ok(existsSync(file), `kustomization.yaml names ${resource}, which exists`);
    for (const [i, doc] of yamlDocs(file).entries())
      objects.push(parse(Objects, doc, `${resource} document ${i}`));
  }
  // Secrets are made by the user (deploy/k8s/secrets/README.md) and never committed.
  for (const generator of kustomization.secretGenerator ?? [])
    for (const f of generator.files)
      assert.match(f.split('=').at(-1) ?? '', /^secrets\//, `${generator.name}: ${f}`);
  assert.ok(readFileSync(path.join(k8sDir, 'secrets', '.gitignore'), 'utf8').includes('*.json'));

  for (const o of objects)
    if (o.kind === 'Deployment' || o.kind === 'StatefulSet')
      for (const [k, v] of Object.entries(o.spec.selector.matchLabels))
        assert.equal(
          o.spec.template.metadata.labels[k],
          v,
          `${o.metadata.name}: the selector matches its pods`,
        );

  const supervisor = objects.find((o) => o.kind === 'StatefulSet');
  assert.ok(supervisor?.kind === 'StatefulSet');
  const service = objects.find(
    (o) => o.kind === 'Service' && o.metadata.name === supervisor.spec.serviceName,
  );
  assert.ok(service?.kind === 'Service', 'the StatefulSet has its Service');
  const container = supervisor.spec.template.spec.containers[0];
  assert.equal(container?.args?.[0], 'train');
  assert.ok(container?.args?.includes('--run-dir=/runs/run'));
  assert.ok(
    container?.volumeMounts?.some(
      (m) => m.name === supervisor.spec.volumeClaimTemplates[0]?.metadata.name && m.mountPath === '/runs',
    ),
    'the run directory is on the claimed volume',
  );
  const { config, ports } = supervisorPorts(container?.args ?? []);
  const servicePorts = service.spec.ports.map((p) => p.port).sort((a, b) => a - b);
  assert.deepEqual(
    servicePorts,
    Array.from({ length: ports.last - ports.first + 1 }, (_, i) => ports.first + i),
    'the Service exposes every port the run listens on',
  );

  const envWorkers = objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'tti-env');
  assert.ok(envWorkers?.kind === 'Deployment');
  assert.ok(envWorkers.spec.replicas <= config.remote.env, 'no more env replicas than remote.env');
  for (const o of objects) {
    if (o.kind !== 'Deployment' || !o.metadata.name.startsWith('tti-')) continue;
    const c = o.spec.template.spec.containers[0];
    const { named } = flags(c?.args ?? []);
    assert.equal(c?.args?.[0], 'worker', o.metadata.name);
    assert.equal(
      named.get('join'),
      `tcp://${service.metadata.name}:${ports.first}`,
      `${o.metadata.name} joins the supervisor's control port`,
    );
    const credentials = named.get('credentials') ?? '';
    const mount = c?.volumeMounts?.find((m) => credentials.startsWith(`${m.mountPath}/`));
    const volume = o.spec.template.spec.volumes?.find((v) => v.name === mount?.name) as
      | { secret?: { secretName: string } }
      | undefined;
    assert.ok(volume?.secret, `${o.metadata.name}: its credential comes from a Secret`);
    assert.ok(
      kustomization.secretGenerator?.some(
        (g) =>
          g.name === volume.secret?.secretName && g.files.some((f) => credentials.endsWith(path.basename(f))),
      ),
      `${o.metadata.name}: ${credentials} is generated`,
    );
  }

  const vllm = parse(
    Kustomization,
    yamlDocs(path.join(k8sDir, 'vllm', 'kustomization.yaml'))[0],
    'vllm/kustomization.yaml',
  );
  for (const resource of vllm.resources)
    for (const doc of yamlDocs(path.join(k8sDir, 'vllm', resource))) parse(Objects, doc, `vllm/${resource}`);
  assert.deepEqual(readdirSync(path.join(k8sDir, 'vllm')).sort(), ['kustomization.yaml', 'vllm.yaml']);
});

test('compose.yaml is a valid Compose file whose workers join its supervisor', () => {
  const compose = parse(Compose, yamlDocs(path.join(projectRoot, 'compose.yaml'))[0], 'compose.yaml');
  const supervisor = compose.services.supervisor;
  assert.ok(supervisor?.command);
  const { config, ports } = supervisorPorts(supervisor.command);
  const published = supervisor.ports?.[0]?.split(':')[0]?.split('-').map(Number) ?? [];
  assert.ok(
    (published[0] ?? 0) <= ports.first && (published[1] ?? 0) >= ports.last,
    `published ${published} covers ${ports.first}–${ports.last}`,
  );
  const envs = Object.entries(compose.services).filter(([, s]) => s.command?.includes('--role=env'));
  assert.equal(envs.length, config.remote.env, 'one env service per expected remote env worker');
  const credentials = new Set<string>();
  for (const [name, s] of envs) {
    assert.ok(s.command?.includes(`--join=tcp://supervisor:${ports.first}`), name);
    const file = s.command?.find((a) => a.startsWith('--credentials='));
    assert.ok(file, name);
    credentials.add(file);
    assert.ok(
      s.volumes?.some((v) => v.endsWith(':/credentials:ro')),
      `${name} mounts the credentials read-only`,
    );
  }
  assert.equal(credentials.size, envs.length, 'each env worker has its own credential');
  assert.ok(existsSync(path.join(projectRoot, 'Dockerfile')));
  assert.match(
    readFileSync(path.join(projectRoot, 'Dockerfile'), 'utf8'),
    /apt-get install[^\n]*chromium[\s\S]*ENTRYPOINT \["node", "\/app\/bin\/tti-run"\]/,
  );
});
