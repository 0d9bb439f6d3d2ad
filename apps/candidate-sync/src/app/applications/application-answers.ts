import type { ApplicationAnswerDto } from '@connector/contracts';
import type { ApplicationQuestion, FieldHasher } from '@connector/ats-core';

/**
 * Answers as last sent to the ATS, by question text (ATS-A matches answers by question text): a keyed hash
 * of each answer, never the answer itself.
 */
export type SentAnswers = Record<string, string | null>;

export function toQuestions(answers: readonly ApplicationAnswerDto[] | undefined): ApplicationQuestion[] {
  return (answers ?? []).map((answer) => ({ Question: answer.question, Answer: answer.answer }));
}

export function sentAnswersOf(questions: readonly ApplicationQuestion[], hasher: FieldHasher): SentAnswers {
  return Object.fromEntries(questions.map((question) => [question.Question, hasher.hash(question.Answer)]));
}

/** The questions whose answer is new or differs from what the ATS was sent. */
export function changedAnswers(
  questions: readonly ApplicationQuestion[],
  sent: SentAnswers,
  hasher: FieldHasher,
): ApplicationQuestion[] {
  return questions.filter((question) => sent[question.Question] !== hasher.hash(question.Answer));
}
