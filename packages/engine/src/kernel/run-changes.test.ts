import { describe, expect, it } from 'vitest';
import { createRunChanges } from './run-changes.js';

const scope = { account: 'acct_a', environment: 'test' } as const;

describe('createRunChanges', () => {
  it('is watching only while some run has a listener, so unwatched engines observe nothing', () => {
    const changes = createRunChanges(() => {});
    expect(changes.watching()).toBe(false);
    const first = changes.watch(scope, 'prun_1', () => {});
    const second = changes.watch(scope, 'prun_2', () => {});
    expect(changes.watching()).toBe(true);
    first();
    expect(changes.watching()).toBe(true);
    second();
    expect(changes.watching()).toBe(false);
  });

  it('tells only the listeners of the committed run, in its own scope', () => {
    const changes = createRunChanges(() => {});
    const heard: string[] = [];
    changes.watch(scope, 'prun_1', () => heard.push('mine'));
    changes.watch({ ...scope, account: 'acct_b' }, 'prun_1', () => heard.push('other account'));
    changes.committed([{ ...scope, id: 'prun_1' }]);
    expect(heard).toEqual(['mine']);
  });

  it('tells every listener that subscribed after a mark, whatever its run, and no other', () => {
    const changes = createRunChanges(() => {});
    const heard: string[] = [];
    changes.watch(scope, 'prun_1', () => heard.push('before'));
    const mark = changes.mark();
    changes.committedSince(mark);
    expect(heard).toEqual([]);
    changes.watch(scope, 'prun_2', () => heard.push('after, prun_2'));
    const gone = changes.watch(scope, 'prun_3', () => heard.push('after, gone'));
    changes.watch({ ...scope, account: 'acct_b' }, 'prun_1', () => heard.push('after, acct_b'));
    gone();
    changes.committedSince(mark);
    expect(heard.sort()).toEqual(['after, acct_b', 'after, prun_2']);
  });

  it('reports a throwing listener and still tells the others', () => {
    const errors: unknown[] = [];
    const changes = createRunChanges((error) => errors.push(error));
    const heard: string[] = [];
    changes.watch(scope, 'prun_1', () => {
      throw new Error('boom');
    });
    changes.watch(scope, 'prun_1', () => heard.push('second'));
    changes.committed([{ ...scope, id: 'prun_1' }]);
    expect(heard).toEqual(['second']);
    expect(errors).toHaveLength(1);
  });
});
