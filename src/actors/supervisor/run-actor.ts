// The run's state machine: starting → running → stopping → stopped | failed, with the iteration,
// policy version and horizon that status shows. The TTI loop (src/loop) reports its progress
// here; status reads it from here.
import { dispatch, type Ref, spawn } from 'nact';
import type { RunState } from '../../protocol/index.js';

export interface RunProgress {
  iteration: number;
  policyVersion: number;
  horizon: number;
}

export interface RunView extends RunProgress {
  state: RunState;
  reason: string | null;
}

export type RunMsg =
  | { kind: 'worker_ready'; workerId: string }
  | { kind: 'progress'; progress: RunProgress }
  | { kind: 'stopping'; reason: string; failed: boolean }
  | { kind: 'stopped' }
  | { kind: 'snapshot'; replyTo: Ref<RunView> };

interface State extends RunView {
  ready: Set<string>;
  failed: boolean;
}

export function spawnRunActor(
  parent: Ref<never>,
  expectedWorkers: readonly string[],
  progress: RunProgress,
  onChange: (view: RunView) => void,
): Ref<RunMsg> {
  const view = (s: State): RunView => ({
    state: s.state,
    reason: s.reason,
    iteration: s.iteration,
    policyVersion: s.policyVersion,
    horizon: s.horizon,
  });
  const initialState: State = {
    ...progress,
    state: expectedWorkers.length === 0 ? 'running' : 'starting',
    reason: null,
    ready: new Set(),
    failed: false,
  };
  return spawn(
    parent,
    (state: State, msg: RunMsg): State => {
      switch (msg.kind) {
        case 'worker_ready': {
          const ready = new Set(state.ready).add(msg.workerId);
          const allUp = expectedWorkers.every((id) => ready.has(id));
          const next = {
            ...state,
            ready,
            state: state.state === 'starting' && allUp ? 'running' : state.state,
          };
          if (next.state !== state.state) onChange(view(next));
          return next;
        }
        case 'progress': {
          const next: State = { ...state, ...msg.progress };
          onChange(view(next));
          return next;
        }
        case 'stopping': {
          if (state.state === 'stopping' || state.state === 'stopped' || state.state === 'failed')
            return state;
          const next: State = { ...state, state: 'stopping', reason: msg.reason, failed: msg.failed };
          onChange(view(next));
          return next;
        }
        case 'stopped': {
          const next: State = { ...state, state: state.failed ? 'failed' : 'stopped' };
          onChange(view(next));
          return next;
        }
        case 'snapshot':
          dispatch(msg.replyTo, view(state));
          return state;
      }
    },
    'run',
    { initialState },
  );
}
