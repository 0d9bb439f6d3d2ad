import { completedErasure } from './erasure-progress';

describe(completedErasure.name, () => {
  const none = { candidateLinks: 0, applicationLinks: 0, documentLinks: 0, candidateRefs: 0, deadLetters: 0 };

  it('waits until every service holding candidate data reported', () => {
    expect(completedErasure({})).toBeUndefined();
    expect(
      completedErasure({ 'candidate-sync': { ...none, candidateLinks: 2 }, 'connector-registry': none }),
    ).toBeUndefined();
  });

  it('adds up what each part removed, per kind of record', () => {
    expect(
      completedErasure({
        'candidate-sync': { ...none, candidateLinks: 2, applicationLinks: 1 },
        'document-service': { ...none, documentLinks: 3, candidateRefs: 2 },
        'connector-registry': { ...none, deadLetters: 4 },
      }),
    ).toEqual({ candidateLinks: 2, applicationLinks: 1, documentLinks: 3, candidateRefs: 2, deadLetters: 4 });
  });
});
