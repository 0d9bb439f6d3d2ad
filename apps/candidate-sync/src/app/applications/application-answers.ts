import type { AtsAQuestion } from '@connector/ats-clients';
import type { ApplicationAnswerDto } from '@connector/contracts';

/** Answers as last sent to the ATS, by question text (ATS-A matches answers by question text). */
export type SentAnswers = Record<string, string | null>;

export function toQuestions(answers: readonly ApplicationAnswerDto[] | undefined): AtsAQuestion[] {
  return (answers ?? []).map((answer) => ({ Question: answer.question, Answer: answer.answer }));
}

export function sentAnswersOf(questions: readonly AtsAQuestion[]): SentAnswers {
  return Object.fromEntries(questions.map((question) => [question.Question, question.Answer]));
}

/** The questions whose answer is new or differs from what the ATS was sent. */
export function changedAnswers(questions: readonly AtsAQuestion[], sent: SentAnswers): AtsAQuestion[] {
  return questions.filter(
    (question) => !(question.Question in sent) || sent[question.Question] !== question.Answer,
  );
}
