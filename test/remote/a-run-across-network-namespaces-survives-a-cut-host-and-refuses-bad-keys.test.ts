// A run across machines, with Linux network namespaces standing in for them (real ZeroMQ over tcp
// with CURVE, real Chromium): the supervisor with replay, learner and one inference worker in one
// namespace, listening on its veth addresses; an env worker and an inference worker joined from a
// second namespace; an env worker joined from a third. Cutting the third namespace's link mid-run
// loses no success replay acknowledged to it, and the episode it held goes back to the queue and
// is finished on the other host. Its machine's manager (here, the test) starts it again once the
// link is back and it registers as a comeback, until its credential is revoked and the supervisor
// drops it. A worker with an unknown key, and one whose key was revoked, are refused at the
// handshake and counted. Nothing is left at the end: no process, no namespace.
//
// Needs root and `ip netns`; where they are missing the test fails and says so (it does not skip).
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StatusSnapshot } from '../../src/protocol/index.js';
import { readReplayLog } from '../../src/replay/index.js';
import { issueCredential, revokeCredential, writeCredential } from '../../src/run/index.js';
import { cliEntry, projectRoot } from '../../src/util/paths.js';
import { tinyRun, writeAnyAnswerTasks } from '../helpers/any-answer-tasks.js';
import { listeningTrainArgs, RunFixture } from '../helpers/run-fixture.js';

const PORT = 6300;
const SUFFIX = `${process.pid % 100000}`;
const NS = { sup: `tti-s${SUFFIX}`, a: `tti-a${SUFFIX}`, b: `tti-b${SUFFIX}` };
// Interface names are at most 15 characters.
const LINK = { a: `tsa${SUFFIX}`, b: `tsb${SUFFIX}` };
const ADDR = { supA: '10.231.1.1', a: '10.231.1.2', supB: '10.231.2.1', b: '10.231.2.2' };

function ip(...args: string[]): string {
  return execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}
const inNs = (ns: string, ...args: string[]) => ip('netns', 'exec', ns, ...args);

function netnsAvailable(): string | null {
  const probe = `tti-probe${SUFFIX}`;
  try {
    ip('netns', 'add', probe);
    ip('netns', 'del', probe);
    return null;
  } catch (error) {
    return (error as Error).message.split('\n')[0] ?? 'ip netns failed';
  }
}

function setUpNamespaces(): void {
  for (const ns of Object.values(NS)) {
    ip('netns', 'add', ns);
    inNs(ns, 'ip', 'link', 'set', 'lo', 'up');
  }
  for (const [side, link, supAddr, peerAddr] of [
    ['a', LINK.a, ADDR.supA, ADDR.a],
    ['b', LINK.b, ADDR.supB, ADDR.b],
  ] as const) {
    const peerLink = `${link}p`;
    ip('link', 'add', link, 'netns', NS.sup, 'type', 'veth', 'peer', 'name', peerLink, 'netns', NS[side]);
    inNs(NS.sup, 'ip', 'addr', 'add', `${supAddr}/24`, 'dev', link);
    inNs(NS.sup, 'ip', 'link', 'set', link, 'up');
    inNs(NS[side], 'ip', 'addr', 'add', `${peerAddr}/24`, 'dev', peerLink);
    inNs(NS[side], 'ip', 'link', 'set', peerLink, 'up');
  }
}

/** Kills every process in our namespaces, then deletes them; returns what was still there. */
function tearDownNamespaces(): string[] {
  const left: string[] = [];
  for (const ns of Object.values(NS)) {
    let pids: string[] = [];
    try {
      pids = ip('netns', 'pids', ns).split('\n').filter(Boolean);
    } catch {
      continue; // no such namespace
    }
    left.push(...pids.map((p) => `${ns}:${p}`));
    for (const pid of pids) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  for (const ns of Object.values(NS)) {
    for (let i = 0; i < 20; i++) {
      try {
        if (ip('netns', 'pids', ns).trim() === '') break;
      } catch {
        break;
      }
      execFileSync('sleep', ['0.1']);
    }
    try {
      ip('netns', 'del', ns);
    } catch {
      // not there
    }
  }
  return left;
}

interface Worker {
  child: ChildProcess;
  output: string;
  exited: Promise<number | null>;
}

/** `tti-run ARGS` in a namespace, in its own process group. */
function cliIn(ns: string, args: readonly string[]): Worker {
  const child = spawn('ip', ['netns', 'exec', ns, process.execPath, cliEntry, ...args], {
    cwd: projectRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker: Worker = {
    child,
    output: '',
    exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))),
  };
  const keep = (d: Buffer) => {
    worker.output += d.toString();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return worker;
}

async function cliInNs(ns: string, args: readonly string[], timeoutMs = 60_000) {
  const run = cliIn(ns, args);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const code = await run.exited;
  clearTimeout(timer);
  return { code, output: run.output };
}

async function status(runDir: string): Promise<StatusSnapshot | null> {
  const { code, output } = await cliInNs(NS.sup, ['status', '--run-dir', runDir, '--json'], 30_000);
  if (code !== 0) return null;
  return JSON.parse(output.trim().split('\n').at(-1) ?? 'null') as StatusSnapshot;
}

/** Episodes this remote env worker saw acknowledged as kept by replay, from its own log. */
function keptIn(logFile: string): string[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"message":"episode ') && l.includes(', kept ('))
    .map((l) => /episode (\S+) /.exec((JSON.parse(l) as { message: string }).message)?.[1] ?? '');
}

/** The episode this env worker started last. */
function lastStarted(logFile: string): string {
  const line = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.includes('): started'))
    .at(-1);
  return /episode (\S+) /.exec(line ?? '')?.[1] ?? '';
}

/** Whether this env worker's log shows `episodeId` finished (scored, whatever the reward). */
function finishedIn(logFile: string, episodeId: string): boolean {
  return (
    existsSync(logFile) &&
    readFileSync(logFile, 'utf8')
      .split('\n')
      .some((l) => l.includes(`"message":"episode ${episodeId} `) && l.includes(', reward '))
  );
}

/** True when this env worker's log shows an episode started and not yet finished. */
function runningIn(logFile: string): boolean {
  const lines = readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.includes('"message":"episode '));
  return lines.at(-1)?.includes('): started') ?? false;
}

async function until<T>(
  what: string,
  timeoutMs: number,
  check: () => T | null | Promise<T | null>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await check();
    if (value !== null && value !== undefined) return value;
    await sleep(250);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

test('a run across network namespaces survives a cut host, requeues its episode and refuses unknown and revoked keys', {
  timeout: 240_000,
}, async (t) => {
  const unavailable = netnsAvailable();
  assert.equal(
    unavailable,
    null,
    `this test needs root and \`ip netns\` (network namespaces and veth pairs) to stand in for machines; ip netns add failed: ${unavailable}`,
  );
  const run = RunFixture.create();
  const workers: Worker[] = [];
  t.after(() => {
    for (const w of workers) {
      try {
        if (w.child.pid !== undefined) process.kill(-w.child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
    tearDownNamespaces();
    run.cleanup();
  });
  const t0 = Date.now();
  const mark = (what: string) => t.diagnostic(`${((Date.now() - t0) / 1000).toFixed(1)} s: ${what}`);
  tearDownNamespaces(); // a previous run of this pid's names, if any
  setUpNamespaces();

  const runDir = run.runDir;
  const tasks = writeAnyAnswerTasks(runDir);
  // What the other machines hold (credentials, their own log folders) lives beside the run's files.
  const extra = path.join(runDir, 'elsewhere');
  const creds = path.join(extra, 'credentials');
  mkdirSync(creds, { recursive: true });
  const credential = (role: 'env' | 'inference') => {
    const c = issueCredential(runDir, role);
    const file = path.join(creds, `${c.id}.json`);
    writeCredential(file, c);
    return file;
  };
  const envA = credential('env');
  const infA = credential('inference');
  const envB = credential('env');
  const revoked = credential('env');
  revokeCredential(runDir, 'env-r2');
  // A key of another run, presented with this run's server key: unknown here.
  const strangerDir = path.join(extra, 'another-run');
  const stranger = issueCredential(strangerDir, 'env');
  const strangerFile = path.join(creds, 'stranger.json');
  writeCredential(strangerFile, {
    ...stranger,
    serverPublic: JSON.parse(readFileSync(envA, 'utf8')).serverPublic,
  });

  // The supervisor's namespace: replay, learner, one inference worker; every env worker joins.
  const sets = [
    // More episodes than the test needs: the test, not the run's size, decides when it ends.
    ...tinyRun(tasks, 1),
    'rollout_size=400',
    'workers.env=0',
    'workers.inference=1',
    'remote.env=2',
    'remote.inference=1',
    'supervisor.heartbeat_interval_ms=200',
    'supervisor.heartbeat_timeout_ms=3000',
    'supervisor.shutdown_timeout_ms=5000',
  ];
  const started = await cliInNs(NS.sup, listeningTrainArgs(runDir, `tcp://0.0.0.0:${PORT}`, sets));
  assert.equal(started.code, 0, started.output);

  const join = (ns: string, via: string, role: string, file: string, host: string, logDir: string) => {
    const w = cliIn(ns, [
      'worker',
      '--join',
      `tcp://${via}:${PORT}`,
      '--role',
      role,
      '--credentials',
      file,
      '--host',
      host,
      '--run-dir',
      logDir,
      '--log-level',
      'debug',
    ]);
    workers.push(w);
    return w;
  };
  const dirA = path.join(extra, 'host-a');
  const dirB = path.join(extra, 'host-b');
  join(NS.a, ADDR.supA, 'inference', infA, 'host-a', dirA);
  join(NS.a, ADDR.supA, 'env', envA, 'host-a', dirA);
  const firstB = join(NS.b, ADDR.supB, 'env', envB, 'host-b', dirB);
  const logB = path.join(dirB, 'logs', 'env-r1.jsonl');

  // Host b works: at least one success acknowledged to it before its link goes.
  await until('host b to keep a success', 90_000, () => (keptIn(logB).length > 0 ? true : null));
  // …and the cut comes while it runs an episode, so there is one to requeue.
  await until('host b to start another episode', 90_000, () => (runningIn(logB) ? true : null));
  const keptBeforeCut = keptIn(logB);
  const heldAtCut = lastStarted(logB);
  mark('cut');
  inNs(NS.sup, 'ip', 'link', 'set', LINK.b, 'down');

  // Bad keys are refused at the handshake while the run goes on, and say so.
  const attempts = await Promise.all(
    [strangerFile, revoked].map((file) =>
      cliInNs(NS.a, [
        'worker',
        '--join',
        `tcp://${ADDR.supA}:${PORT}`,
        '--role',
        'env',
        '--credentials',
        file,
        '--register-timeout',
        '20000',
      ]),
    ),
  );
  for (const attempt of attempts) {
    assert.equal(attempt.code, 2, attempt.output);
    assert.match(attempt.output, /refused this worker's key \(ZAP 400\)/);
  }

  mark('bad keys refused');
  // The supervisor gives up on host b by heartbeat and requeues what it held.
  const lost = await until('env-r1 lost', 30_000, async () => {
    const s = await status(runDir);
    return s?.workers.find((w) => w.id === 'env-r1')?.state === 'lost' ? s : null;
  });
  assert.ok((lost.remote?.refusedConnections ?? 0) >= 2, JSON.stringify(lost.remote));
  assert.equal(lost.workers.find((w) => w.id === 'env-r0')?.host, 'host-a');

  // The link comes back; b's worker has exited by itself (no word from the supervisor) and its
  // machine's manager starts it again: it joins under the same key and takes work.
  mark('lost seen');
  inNs(NS.sup, 'ip', 'link', 'set', LINK.b, 'up');
  assert.equal(await firstB.exited, 1, firstB.output);
  const secondB = join(NS.b, ADDR.supB, 'env', envB, 'host-b', dirB);
  const back = await until('env-r1 back', 60_000, async () => {
    const s = await status(runDir);
    const w = s?.workers.find((x) => x.id === 'env-r1');
    return w?.state === 'ready' && w.restarts === 1 ? s : null;
  });
  mark('back');
  assert.ok(back.workers.some((w) => w.id === 'env-r1' && w.host === 'host-b'));

  // Its credential is revoked: the supervisor drops it (it exits, told why) and the run goes on.
  mark('revoking env-r1');
  revokeCredential(runDir, 'env-r1');
  // The revoke cuts its live connection (the sockets rebind) and its redial is refused at the
  // handshake; or the supervisor's drop reaches it first; either way it exits, told why. Or its cut
  // sockets are still redialling when its own watch of the supervisor runs out (seen once, the
  // cuts logged first): it exits all the same, within seconds, cut off.
  const code = await secondB.exited;
  assert.ok(code === 1 || code === 2, `${code}: ${secondB.output}`);
  assert.match(
    secondB.output,
    /the supervisor refused this worker: credential env-r1 revoked|refused this worker's key \(ZAP 400\)|was cut, 1 so far[\s\S]*no word from the supervisor/,
  );

  // The episode host b held at the cut is finished by host a (same id: replay keeps it once).
  const logA = path.join(dirA, 'logs', 'env-r0.jsonl');
  await until(`${heldAtCut} to be finished on host a`, 90_000, () =>
    finishedIn(logA, heldAtCut) ? true : null,
  );

  // The run stops gracefully; every success acknowledged to host b is in replay's log.
  const stopped = await cliInNs(NS.sup, ['stop', '--run-dir', runDir]);
  const supervisorLog = () =>
    readFileSync(path.join(runDir, 'logs', 'supervisor.jsonl'), 'utf8')
      .split('\n')
      .slice(-40)
      .join('\n');
  assert.equal(stopped.code, 0, `${stopped.output}\nthe supervisor's log ends:\n${supervisorLog()}`);
  mark('run stopped');
  const inReplay = new Set(readReplayLog(path.join(runDir, 'replay')).map((t) => t.episodeId));
  for (const id of keptBeforeCut) assert.ok(inReplay.has(id), `${id}, acknowledged to host b, is in replay`);
  const log = readFileSync(path.join(runDir, 'logs', 'supervisor.jsonl'), 'utf8');
  assert.match(log, /env-r1 \(remote, host-b\): no heartbeat/);
  assert.match(log, /env-r1 died holding 1 episode\(s\); they go back to the queue/);
  assert.match(log, /refused a connection from 10\.231\.1\.2: unknown key/);
  assert.match(log, /refused a connection from 10\.231\.1\.2: key env-r2 \(.{8}…\) was revoked/);
  assert.match(log, /credential env-r1 revoked; dropping that worker/);

  // Nothing is left: the remote workers exited with the run, and the namespaces go.
  for (const w of workers) await Promise.race([w.exited, sleep(15_000)]);
  const left = tearDownNamespaces();
  assert.deepEqual(left, [], 'no process left in the namespaces');
  const listed = ip('netns', 'list');
  for (const ns of Object.values(NS)) assert.ok(!listed.includes(ns), `${ns} deleted`);
});
