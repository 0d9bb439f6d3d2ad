import { createHash } from 'node:crypto';
import { AtsBError } from './ats-b.error';
import type {
  Candidate,
  CandidateAddress,
  CandidateEducation,
  CandidateFile,
  CandidateFileView,
  CandidateWorkHistory,
} from './sandbox.types';

export interface NewFile {
  externalID: string;
  fileType: string;
  name: string;
  contentType: string | null;
  description: string | null;
  type: string | null;
  content: Buffer;
  via: 'json' | 'multipart';
}

export interface CandidateView extends Candidate {
  workHistories: CandidateWorkHistory[];
  educations: CandidateEducation[];
  files: CandidateFileView[];
}

export interface DuplicateReport {
  /** Candidates beyond the first that share an email (case-insensitive) with an earlier one. */
  byEmail: number;
  groups: { email: string; candidateIds: number[] }[];
}

/** Candidates and what hangs off them: work history, education, files. */
export class CandidateStore {
  private candidates = new Map<number, Candidate>();
  private workHistories = new Map<number, CandidateWorkHistory>();
  private educations = new Map<number, CandidateEducation>();
  private files = new Map<number, CandidateFile>();
  private ids = { candidate: 1, workHistory: 1, education: 1, file: 1 };

  clear(): void {
    this.candidates.clear();
    this.workHistories.clear();
    this.educations.clear();
    this.files.clear();
    this.ids = { candidate: 1, workHistory: 1, education: 1, file: 1 };
  }

  get(id: number): Candidate | undefined {
    return this.candidates.get(id);
  }

  require(id: number): Candidate {
    const c = this.candidates.get(id);
    if (!c) throw AtsBError.notFound('Candidate', id);
    return c;
  }

  insert(values: Record<string, unknown>): Candidate {
    const now = Date.now();
    const candidate: Candidate = {
      id: this.ids.candidate++,
      firstName: null,
      lastName: null,
      name: '',
      email: null,
      phone: null,
      mobile: null,
      address: null,
      status: 'New Lead',
      source: null,
      dateOfBirth: null,
      isDeleted: false,
      dateAdded: now,
      dateLastModified: now,
      ...(values as Partial<Candidate>),
    };
    this.candidates.set(candidate.id, candidate);
    return candidate;
  }

  /** Changed fields only; `name` is never derived from first/last name, as in Bullhorn. */
  update(id: number, values: Record<string, unknown>): Candidate {
    const current = this.require(id);
    const address = values['address'] as CandidateAddress | null | undefined;
    const next: Candidate = {
      ...current,
      ...(values as Partial<Candidate>),
      id,
      address:
        address === undefined
          ? current.address
          : address === null
            ? null
            : { ...current.address, ...address },
      dateLastModified: Math.max(Date.now(), current.dateLastModified + 1),
    };
    this.candidates.set(id, next);
    return next;
  }

  search(predicate: (c: Candidate) => boolean): Candidate[] {
    return [...this.candidates.values()].filter(predicate);
  }

  addWorkHistory(values: Record<string, unknown>): CandidateWorkHistory {
    const candidateId = (values['candidate'] as { id: number }).id;
    const record: CandidateWorkHistory = {
      companyName: null,
      title: null,
      startDate: null,
      endDate: null,
      comments: null,
      ...(values as Partial<CandidateWorkHistory>),
      id: this.ids.workHistory++,
      candidate: { id: candidateId },
      dateAdded: Date.now(),
    };
    this.workHistories.set(record.id, record);
    return record;
  }

  updateWorkHistory(id: number, values: Record<string, unknown>): CandidateWorkHistory {
    const current = this.workHistories.get(id);
    if (!current) throw AtsBError.notFound('CandidateWorkHistory', id);
    const next = { ...current, ...(values as Partial<CandidateWorkHistory>), id };
    this.workHistories.set(id, next);
    return next;
  }

  deleteWorkHistory(id: number): void {
    if (!this.workHistories.delete(id)) throw AtsBError.notFound('CandidateWorkHistory', id);
  }

  addEducation(values: Record<string, unknown>): CandidateEducation {
    const candidateId = (values['candidate'] as { id: number }).id;
    const record: CandidateEducation = {
      school: null,
      degree: null,
      major: null,
      startDate: null,
      endDate: null,
      ...(values as Partial<CandidateEducation>),
      id: this.ids.education++,
      candidate: { id: candidateId },
      dateAdded: Date.now(),
    };
    this.educations.set(record.id, record);
    return record;
  }

  updateEducation(id: number, values: Record<string, unknown>): CandidateEducation {
    const current = this.educations.get(id);
    if (!current) throw AtsBError.notFound('CandidateEducation', id);
    const next = { ...current, ...(values as Partial<CandidateEducation>), id };
    this.educations.set(id, next);
    return next;
  }

  deleteEducation(id: number): void {
    if (!this.educations.delete(id)) throw AtsBError.notFound('CandidateEducation', id);
  }

  allWorkHistories(): CandidateWorkHistory[] {
    return [...this.workHistories.values()];
  }

  allEducations(): CandidateEducation[] {
    return [...this.educations.values()];
  }

  workHistoriesOf(candidateId: number): CandidateWorkHistory[] {
    return [...this.workHistories.values()].filter((w) => w.candidate.id === candidateId);
  }

  educationsOf(candidateId: number): CandidateEducation[] {
    return [...this.educations.values()].filter((e) => e.candidate.id === candidateId);
  }

  addFile(candidateId: number, file: NewFile): CandidateFile {
    this.require(candidateId);
    const record: CandidateFile = {
      ...file,
      id: this.ids.file++,
      candidateId,
      fileSize: file.content.length,
      sha256: createHash('sha256').update(file.content).digest('hex'),
      dateAdded: Date.now(),
    };
    this.files.set(record.id, record);
    return record;
  }

  getFile(id: number): CandidateFile | undefined {
    return this.files.get(id);
  }

  filesOf(candidateId: number): CandidateFile[] {
    return [...this.files.values()].filter((f) => f.candidateId === candidateId);
  }

  allFiles(): CandidateFileView[] {
    return [...this.files.values()].map(fileView);
  }

  views(): CandidateView[] {
    return [...this.candidates.values()].map((c) => this.view(c));
  }

  view(c: Candidate): CandidateView {
    return {
      ...c,
      workHistories: this.workHistoriesOf(c.id),
      educations: this.educationsOf(c.id),
      files: this.filesOf(c.id).map(fileView),
    };
  }

  get size(): number {
    return this.candidates.size;
  }

  duplicates(): DuplicateReport {
    const byEmail = new Map<string, number[]>();
    for (const c of this.candidates.values()) {
      if (!c.email) continue;
      const key = c.email.trim().toLowerCase();
      byEmail.set(key, [...(byEmail.get(key) ?? []), c.id]);
    }
    const groups = [...byEmail.entries()]
      .filter(([, ids]) => ids.length > 1)
      .map(([email, candidateIds]) => ({ email, candidateIds }));
    return { byEmail: groups.reduce((n, g) => n + g.candidateIds.length - 1, 0), groups };
  }
}

export function fileView(file: CandidateFile): CandidateFileView {
  const { content: _content, ...rest } = file;
  return rest;
}
