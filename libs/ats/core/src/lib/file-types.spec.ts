import { PermanentMessageError } from '@connector/messaging';
import { checkFileBytes, claimedFileType, cleanFileName, DOCUMENT_FILE_TYPES, sniff } from './file-types';

const zip = (firstName: string, rest = '') =>
  Buffer.concat([
    Buffer.from([0x50, 0x4b, 0x03, 0x04]),
    Buffer.alloc(26),
    Buffer.from(firstName + rest, 'latin1'),
  ]);

describe(sniff.name, () => {
  it.each([
    ['pdf', Buffer.from('%PDF-1.7\n…')],
    ['ole', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0])],
    ['docx', zip('[Content_Types].xml', '…word/document.xml')],
    ['odt', zip('mimetypeapplication/vnd.oasis.opendocument.text')],
    ['zip', zip('notes.txt')],
    ['rtf', Buffer.from('{\\rtf1\\ansi hello}')],
    ['png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0])],
    ['jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0])],
    [
      'svg',
      Buffer.from(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      ),
    ],
    ['svg', Buffer.from('  <svg onload="alert(1)">')],
    ['html', Buffer.from('<!DOCTYPE html><html><body>cv</body></html>')],
    ['xml', Buffer.from('<?xml version="1.0"?><cv/>')],
    ['executable', Buffer.from('MZ\x90\x00')],
    ['script', Buffer.from('#!/bin/sh\nrm -rf /')],
    ['text', Buffer.from('Grace Hopper — Curriculum vitae\nCOBOL, compilers')],
    ['binary', Buffer.from([1, 2, 0, 4])],
  ])('%s', (kind, bytes) => {
    expect(sniff(bytes)).toBe(kind);
  });
});

describe('file type checks', () => {
  const pdf = { fileName: 'cv.pdf', contentType: 'application/pdf' };

  it('refuses an SVG named cv.pdf, saying what the bytes are', () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const type = claimedFileType(pdf, DOCUMENT_FILE_TYPES, 'ATS-B');
    expect(() => checkFileBytes(pdf, type, svg, 'c1')).toThrow(PermanentMessageError);
    expect(() => checkFileBytes(pdf, type, svg, 'c1')).toThrow(
      'the .pdf document is refused: its bytes are an SVG image (XML that can carry script), not a PDF document; nothing uploaded',
    );
    expect(() => checkFileBytes(pdf, type, Buffer.from('%PDF-1.4'), 'c1')).not.toThrow();
  });

  it('accepts content-type parameters and any case, and refuses a disagreeing content type', () => {
    expect(
      claimedFileType(
        { fileName: 'notes.TXT', contentType: 'Text/Plain; charset=utf-8' },
        DOCUMENT_FILE_TYPES,
        'X',
      ),
    ).toBe('txt');
    expect(
      claimedFileType({ fileName: 'me.jpeg', contentType: 'image/jpeg' }, DOCUMENT_FILE_TYPES, 'X'),
    ).toBe('jpeg');
    expect(() =>
      claimedFileType({ fileName: 'cv.pdf', contentType: 'text/html' }, DOCUMENT_FILE_TYPES, 'X'),
    ).toThrow(/content type is "text\/html"/);
    expect(() =>
      claimedFileType({ fileName: 'cv', contentType: 'application/pdf' }, DOCUMENT_FILE_TYPES, 'X'),
    ).toThrow(/not a file type sent to X/);
  });

  it('never names the file in a refusal: a file name often names the candidate', () => {
    const named = (fileName: string, contentType = 'application/pdf') => ({ fileName, contentType });
    const refusals = [
      () => claimedFileType(named('Jane Doe CV.svg', 'image/svg+xml'), DOCUMENT_FILE_TYPES, 'X'),
      () => claimedFileType(named('Jane Doe CV.pdf', 'text/html'), DOCUMENT_FILE_TYPES, 'X'),
      () => claimedFileType(named('Jane Doe.Smith CV'), DOCUMENT_FILE_TYPES, 'X'),
      () => checkFileBytes(named('Jane Doe CV.pdf'), 'pdf', Buffer.from('<svg></svg>')),
    ];
    for (const refusal of refusals) {
      expect(refusal).toThrow(PermanentMessageError);
      expect(refusal).not.toThrow(/Jane|Doe|Smith/i);
    }
    expect(refusals[0]).toThrow('the .svg document is not a file type sent to X');
    expect(refusals[2]).toThrow('the document (no usual extension) is not a file type sent to X');
  });

  it('refuses HTML saved as .txt', () => {
    const txt = { fileName: 'cv.txt', contentType: 'text/plain' };
    expect(() => checkFileBytes(txt, 'txt', Buffer.from('<html><script>x</script></html>'))).toThrow(
      /an HTML page/,
    );
  });
});

describe(cleanFileName.name, () => {
  it('drops control and bidi-override characters and turns path separators into _', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(cleanFileName('C:\\Users\\cv.pdf')).toBe('C:_Users_cv.pdf');
    expect(cleanFileName('cv\r\n\u0000.pdf')).toBe('cv.pdf');
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(cleanFileName(' \u0007 ')).toBe('document');
  });

  it('shortens to the limit and keeps the extension', () => {
    const cleaned = cleanFileName(`${'x'.repeat(150)}.docx`, 100);
    expect(cleaned).toHaveLength(100);
    expect(cleaned.endsWith('.docx')).toBe(true);
    expect(cleanFileName(`${'é'.repeat(120)}.pdf`, 100)).toHaveLength(100);
  });
});
