// The run's stages and their progress.
import type { ProgramRun } from '../../api/types.js';
import { Region } from '../../components/Region.js';
import { Time } from '../../components/Time.js';

/** The "Stages" region. */
export function StagesSection({ run }: { run: ProgramRun }) {
  return (
    <Region title="Stages">
      {run.stages.length === 0 ? (
        <p>This scenario has no stages.</p>
      ) : (
        <ol class="stages">
          {run.stages.map((stage) => (
            <li
              key={stage.id}
              class={`stage stage-${stage.status}`}
              aria-current={
                run.stage === stage.id && stage.status === 'active' ? 'step' : undefined
              }
            >
              <span class="stage-title">{stage.title}</span> <code>{stage.id}</code>{' '}
              <span class="stage-status">{stage.status}</span>
              {stage.started_at !== null ? (
                <span class="stage-times">
                  {' '}
                  started <Time value={stage.started_at} />
                  {stage.completed_at !== null ? (
                    <>
                      , ended <Time value={stage.completed_at} />
                    </>
                  ) : null}
                </span>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </Region>
  );
}
