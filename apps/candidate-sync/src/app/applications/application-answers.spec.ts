import { FieldHasher } from '@connector/ats-core';
import { changedAnswers, sentAnswersOf, toQuestions } from './application-answers';

const hasher = new FieldHasher('k'.repeat(32));

describe('application answers', () => {
  const answers = [
    { questionId: 'q1', question: 'Notice period?', answer: '1 month' },
    { question: 'Right to work?', answer: 'yes' },
  ];

  it('maps answers to ATS-A questions', () => {
    expect(toQuestions(answers)).toEqual([
      { Question: 'Notice period?', Answer: '1 month' },
      { Question: 'Right to work?', Answer: 'yes' },
    ]);
    expect(toQuestions(undefined)).toEqual([]);
  });

  it('patches only the answers that changed or are new', () => {
    const sent = sentAnswersOf(toQuestions(answers), hasher);
    expect(JSON.stringify(sent)).not.toContain('1 month'); // kept as keyed hashes, never the answers
    const next = toQuestions([
      { question: 'Notice period?', answer: '2 months' },
      { question: 'Right to work?', answer: 'yes' },
      { question: 'Salary?', answer: '50k' },
    ]);
    expect(changedAnswers(next, sent, hasher)).toEqual([
      { Question: 'Notice period?', Answer: '2 months' },
      { Question: 'Salary?', Answer: '50k' },
    ]);
    expect(changedAnswers(toQuestions(answers), sent, hasher)).toEqual([]);
  });
});
