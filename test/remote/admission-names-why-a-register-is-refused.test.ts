// Who may register in a run that listens: the run's own workers (proof of the run's key), and one
// worker per credential under its key id, in its role, while the run expects more of that role.
// Every refusal says why. The config names a remote count without --listen, and a bad listen address.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { admit, type RegisterClaim } from '../../src/actors/supervisor/admission.js';
import { ConfigError, resolveConfig } from '../../src/config/index.js';
import { registerProof } from '../../src/protocol/index.js';
import { ensureCurveKeys, issueCredential, readAllowList, revokeCredential } from '../../src/run/index.js';

test('admission takes proven local and remote workers and names every refusal', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tti-admit-'));
  try {
    const keys = ensureCurveKeys(dir);
    const env0 = issueCredential(dir, 'env');
    const env1 = issueCredential(dir, 'env');
    const gone = issueCredential(dir, 'env');
    revokeCredential(dir, gone.id);
    const config = resolveConfig({ transport: { listen: 'tcp://0.0.0.0:5555' }, remote: { env: 1 } }, 'test');
    const joined = new Set<string>();
    const ctx = { config, keys, allowList: readAllowList(dir), joined: () => joined };
    const claim = (
      c: { id: string; secretKey: string },
      role: 'env' | 'inference' = 'env',
    ): RegisterClaim => ({
      role,
      workerId: c.id,
      pid: 42,
      hostname: 'h',
      credential: {
        keyId: c.id,
        proof: registerProof(
          { secretKey: c.secretKey, serverPublic: keys.serverPublic },
          c.id,
          role,
          'h',
          42,
        ),
      },
    });
    const local = { id: 'local', secretKey: keys.clientSecret };
    assert.deepEqual(admit({ ...claim(local), workerId: 'env-0' }, ctx), { kind: 'local' });
    assert.deepEqual(admit({ ...claim(local), workerId: 'env-0', credential: undefined }, ctx), {
      kind: 'refused',
      reason: "env-0: no proof of the run's own key",
    });
    assert.deepEqual(admit(claim(env0), ctx), { kind: 'remote', role: 'env', id: 'env-r0' });
    joined.add('env-r0');
    assert.deepEqual(admit(claim(env0), ctx), { kind: 'remote', role: 'env', id: 'env-r0' }, 'a comeback');
    const refused = (c: RegisterClaim) => {
      const verdict = admit(c, ctx);
      assert.equal(verdict.kind, 'refused');
      return verdict.kind === 'refused' ? verdict.reason : '';
    };
    assert.match(
      refused(claim(env1)),
      /expects 1 remote env worker\(s\) \(remote\.env\) and has them: env-r0/,
    );
    assert.match(refused(claim(gone)), /credential env-r2 was revoked at/);
    assert.match(refused(claim(env0, 'inference')), /credential env-r0 is for a env worker, not inference/);
    assert.match(refused({ ...claim(env0), workerId: 'env-0' }), /registers as env-r0, not env-0/);
    // Someone holding env-r1's key claims env-r0: the proof is made with the wrong secret.
    const forged = claim({ id: 'env-r0', secretKey: env1.secretKey });
    assert.match(refused(forged), /env-r0: the proof does not match its key/);
    assert.match(
      refused({ ...claim(env0), credential: { keyId: 'env-r9', proof: 'ab' } }),
      /no credential 'env-r9'/,
    );
    // A run that does not listen takes no remote worker at all.
    assert.match(
      (() => {
        const v = admit(claim(env0), { ...ctx, keys: null });
        return v.kind === 'refused' ? v.reason : '';
      })(),
      /does not listen for remote workers/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the config names remote counts without --listen and bad listen addresses', () => {
  assert.throws(
    () => resolveConfig({ remote: { env: 8 } }, 'run.yaml'),
    (e: Error) =>
      e instanceof ConfigError &&
      /invalid config run\.yaml:\n {2}- key 'remote\.env': got 8; 8 remote env workers need the run to listen: pass --listen/.test(
        e.message,
      ),
  );
  assert.throws(
    () => resolveConfig({ remote: { inference: -1 } }, 'run.yaml'),
    /key 'remote\.inference': got -1; .*>=0/,
  );
  assert.throws(
    () => resolveConfig({ transport: { listen: 'udp://x:1' } }, 'run.yaml'),
    /key 'transport\.listen': got "udp:\/\/x:1"; expected tcp:\/\/ADDR:PORT/,
  );
  assert.throws(
    () => resolveConfig({ transport: { listen: 'tcp://0.0.0.0:65500' } }, 'run.yaml'),
    /key 'transport\.listen': .*at most 65000/,
  );
  const ok = resolveConfig({ transport: { listen: 'tcp://[::]:5555' }, remote: { env: 2 } }, 'run.yaml');
  assert.equal(ok.remote.env, 2);
});
