import { AtsADocumentSink, type AtsAClient } from '@connector/ats-a';
import { AtsBDocumentSink } from '@connector/ats-b';
import type { DocumentDataDto } from '@connector/contracts';
import { PermanentMessageError } from '@connector/messaging';

const doc = (kind: DocumentDataDto['kind'], fileName = 'cv.pdf'): DocumentDataDto => ({
  documentId: 'd1',
  candidateId: 'c1',
  kind,
  fileName,
  contentType: 'application/pdf',
  sizeBytes: 10,
  sha256: 'a'.repeat(64),
  url: 'http://files.test/cv.pdf',
});

describe('document kind routing', () => {
  const atsA = new AtsADocumentSink({} as AtsAClient);

  it('ATS-A takes CVs and other files, and skips Smart CVs with the reason', () => {
    expect(atsA.plan(doc('cv'))).toEqual({ action: 'upload' });
    expect(atsA.plan(doc('other'))).toEqual({ action: 'upload' });
    expect(atsA.plan(doc('smart-cv'))).toEqual({ action: 'skip', reason: 'ATS-A does not take Smart CVs' });
  });

  it('ATS-B takes Smart CVs only when "Send Smart CV" is on', () => {
    expect(new AtsBDocumentSink(undefined, 'b1', false).plan(doc('smart-cv'))).toEqual({
      action: 'skip',
      reason: 'the connector\'s "Send Smart CV" option is off',
    });
    expect(new AtsBDocumentSink(undefined, 'b1', true).plan(doc('smart-cv'))).toEqual({ action: 'upload' });
    expect(new AtsBDocumentSink(undefined, 'b1', false).plan(doc('other'))).toEqual({ action: 'upload' });
  });

  it('ATS-B refuses executables and scripts with a clear reason', () => {
    const sink = new AtsBDocumentSink(undefined, 'b1', true);
    expect(() => sink.plan(doc('other', 'setup.EXE'))).toThrow(PermanentMessageError);
    expect(() => sink.plan(doc('other', 'page.html'))).toThrow(/refuses \.html files/);
    expect(() => sink.plan(doc('other', 'Jane Doe setup.exe'))).not.toThrow(/Jane Doe/);
  });

  it.each([
    [new AtsADocumentSink({} as AtsAClient, 'a1'), 'ATS-A'],
    [new AtsBDocumentSink(undefined, 'b1', true), 'ATS-B'],
  ])('%# refuses types outside its allowlist and names that disagree with the content type', (sink, name) => {
    expect(() => sink.plan(doc('cv', 'cv.svg'))).toThrow(new RegExp(`not a file type sent to ${name}`));
    expect(() => sink.plan({ ...doc('cv', 'cv.pdf'), contentType: 'image/svg+xml' })).toThrow(
      /named as a PDF document but its content type is "image\/svg\+xml"/,
    );
    expect(
      sink.plan({
        ...doc('cv', 'CV.DOCX'),
        contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      }),
    ).toEqual({ action: 'upload' });
  });
});
