// SFT export: a run's kept trajectories as chat-format samples for an external fine-tuning job.
// One sample per step, as TTI trains: the conversation the policy saw at that step (built by the
// same function inference uses, so training and serving prompts agree) followed by the target
// reply as the assistant turn. Screenshots come from the episode records (RUN_DIR/episodes/<id>/);
// they are copied next to the output, or inlined as data URLs.
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ChatTurn } from '../chat/index.js';
import {
  buildConversation,
  type EpisodeContext,
  jpegDataUrl,
  type PromptTemplates,
} from '../model/chat/index.js';
import type { Trajectory } from '../protocol/index.js';
import { isKept } from '../replay/index.js';

export interface SftSample {
  /** the conversation up to the step, then the target reply as the last (assistant) turn */
  messages: ChatTurn[];
  metadata: {
    episode_id: string;
    task_id: string;
    site: string;
    step: number;
    steps: number;
    reward: number;
    iteration: number;
    policy_version: number;
  };
}

export interface SftExportOptions {
  /** where episode records (and their screenshots) are: RUN_DIR/episodes */
  episodesDir: string;
  out: string;
  templates: PromptTemplates;
  maxImages: number;
  /** 'files': copied to <out without .jsonl>-images/ and named by absolute path; 'data_url': inline */
  images: 'files' | 'data_url';
}

export interface SftExportReport {
  file: string;
  trajectories: number;
  samples: number;
  images: number;
  /** steps whose screenshot was not recorded (the sample goes without it) */
  missingImages: number;
  /** trajectories left out by TTI's filter (reward 0 or an N/A answer) */
  skipped: number;
}

/** The samples of one trajectory; `imageUrl` says where step i's screenshot is, or null. */
export function trajectorySamples(
  t: Trajectory,
  templates: PromptTemplates,
  maxImages: number,
  imageUrl: (step: number) => string | null,
): SftSample[] {
  const images = new Map<number, string>();
  const samples: SftSample[] = [];
  t.steps.forEach((step, i) => {
    const url = imageUrl(i);
    if (url !== null) images.set(i, url);
    const ctx: EpisodeContext = {
      intent: t.intent,
      site: t.site,
      url: step.url,
      observation: step.observation,
      note: step.note,
      replies: t.steps.slice(0, i).map((s) => s.reply),
      images,
      ...(t.offers ? { offers: t.offers } : {}),
    };
    samples.push({
      messages: [...buildConversation(templates, ctx, maxImages), { role: 'assistant', content: step.reply }],
      metadata: {
        episode_id: t.episodeId,
        task_id: t.taskId,
        site: t.site,
        step: i,
        steps: t.steps.length,
        reward: t.reward,
        iteration: t.iteration,
        policy_version: step.policyVersion,
      },
    });
  });
  return samples;
}

/** Writes the kept trajectories' samples as JSON lines (atomically: a temp file, then a rename). */
export function exportSft(trajectories: readonly Trajectory[], o: SftExportOptions): SftExportReport {
  const out = path.resolve(o.out);
  mkdirSync(path.dirname(out), { recursive: true });
  const imageDir = `${out.replace(/\.jsonl$/, '')}-images`;
  const report: SftExportReport = {
    file: out,
    trajectories: 0,
    samples: 0,
    images: 0,
    missingImages: 0,
    skipped: 0,
  };
  const lines: string[] = [];
  for (const t of trajectories) {
    if (!isKept(t)) {
      report.skipped++;
      continue;
    }
    report.trajectories++;
    const imageUrl = (step: number): string | null => {
      const name = `step-${String(step).padStart(3, '0')}.jpg`;
      const source = path.join(o.episodesDir, t.episodeId, name);
      if (!existsSync(source)) {
        report.missingImages++;
        return null;
      }
      report.images++;
      if (o.images === 'data_url') return jpegDataUrl(readFileSync(source));
      const target = path.join(imageDir, t.episodeId, name);
      mkdirSync(path.dirname(target), { recursive: true });
      copyFileSync(source, target);
      return target;
    };
    for (const sample of trajectorySamples(t, o.templates, o.maxImages, imageUrl)) {
      lines.push(JSON.stringify(sample));
      report.samples++;
    }
  }
  const temp = `${out}.tmp-${process.pid}`;
  writeFileSync(temp, lines.length > 0 ? `${lines.join('\n')}\n` : '');
  renameSync(temp, out);
  return report;
}
