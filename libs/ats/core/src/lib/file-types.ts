import { PermanentMessageError } from '@connector/messaging';

/** The kinds of file a recruiter may be sent: each known by its extensions, content types and bytes. */
export type FileTypeName = 'pdf' | 'doc' | 'docx' | 'odt' | 'rtf' | 'txt' | 'png' | 'jpeg';

/** What the bytes of a file are, as far as the first bytes tell. */
export type SniffedKind =
  | 'pdf'
  | 'ole'
  | 'docx'
  | 'odt'
  | 'zip'
  | 'rtf'
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'svg'
  | 'html'
  | 'xml'
  | 'executable'
  | 'script'
  | 'text'
  | 'binary';

interface FileType {
  label: string;
  extensions: readonly string[];
  contentTypes: readonly string[];
  /** What the bytes must be. */
  bytes: SniffedKind;
}

export const FILE_TYPES: Readonly<Record<FileTypeName, FileType>> = {
  pdf: { label: 'a PDF document', extensions: ['.pdf'], contentTypes: ['application/pdf'], bytes: 'pdf' },
  doc: {
    label: 'a Word 97-2003 document',
    extensions: ['.doc'],
    contentTypes: ['application/msword'],
    bytes: 'ole',
  },
  docx: {
    label: 'a Word document',
    extensions: ['.docx'],
    contentTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    bytes: 'docx',
  },
  odt: {
    label: 'an OpenDocument text',
    extensions: ['.odt'],
    contentTypes: ['application/vnd.oasis.opendocument.text'],
    bytes: 'odt',
  },
  rtf: {
    label: 'an RTF document',
    extensions: ['.rtf'],
    contentTypes: ['application/rtf', 'text/rtf'],
    bytes: 'rtf',
  },
  txt: { label: 'a plain text file', extensions: ['.txt'], contentTypes: ['text/plain'], bytes: 'text' },
  png: { label: 'a PNG image', extensions: ['.png'], contentTypes: ['image/png'], bytes: 'png' },
  jpeg: { label: 'a JPEG image', extensions: ['.jpg', '.jpeg'], contentTypes: ['image/jpeg'], bytes: 'jpeg' },
};

/** Documents a recruiter opens: office documents, text and photos; nothing that runs or renders script. */
export const DOCUMENT_FILE_TYPES: readonly FileTypeName[] = [
  'pdf',
  'doc',
  'docx',
  'odt',
  'rtf',
  'txt',
  'png',
  'jpeg',
];

const SNIFFED_LABELS: Record<SniffedKind, string> = {
  pdf: 'a PDF document',
  ole: 'an old-style Office document',
  docx: 'a Word document',
  odt: 'an OpenDocument text',
  zip: 'a ZIP archive',
  rtf: 'an RTF document',
  png: 'a PNG image',
  jpeg: 'a JPEG image',
  gif: 'a GIF image',
  svg: 'an SVG image (XML that can carry script)',
  html: 'an HTML page',
  xml: 'an XML document',
  executable: 'a program (executable)',
  script: 'a script',
  text: 'plain text',
  binary: 'binary data of no allowed type',
};

const startsWith = (content: Buffer, ...bytes: number[]) =>
  content.length >= bytes.length && bytes.every((b, i) => content[i] === b);
const ascii = (content: Buffer, offset: number, text: string) =>
  content.subarray(offset, offset + text.length).toString('latin1') === text;

/** What the bytes are, from their signatures (magic bytes); text is looked at for markup and scripts. */
export function sniff(content: Buffer): SniffedKind {
  if (ascii(content, 0, '%PDF-')) return 'pdf';
  if (startsWith(content, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) return 'ole';
  if (startsWith(content, 0x50, 0x4b, 0x03, 0x04)) {
    // OpenDocument stores "mimetype" first, uncompressed; OOXML names word/ parts in its central directory.
    if (ascii(content, 30, 'mimetype') && ascii(content, 38, 'application/vnd.oasis.opendocument.text'))
      return 'odt';
    const names = content.toString('latin1');
    if (names.includes('[Content_Types].xml') && names.includes('word/')) return 'docx';
    return 'zip';
  }
  if (ascii(content, 0, '{\\rtf')) return 'rtf';
  if (startsWith(content, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (startsWith(content, 0xff, 0xd8, 0xff)) return 'jpeg';
  if (ascii(content, 0, 'GIF87a') || ascii(content, 0, 'GIF89a')) return 'gif';
  if (
    ascii(content, 0, 'MZ') ||
    startsWith(content, 0x7f, 0x45, 0x4c, 0x46) ||
    startsWith(content, 0xcf, 0xfa, 0xed, 0xfe)
  )
    return 'executable';
  const head = content.subarray(0, 8192);
  if (head.includes(0)) return 'binary';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, lastCompleteUtf8(head)));
  } catch {
    return 'binary';
  }
  const start = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 1024)
    .toLowerCase();
  if (start.startsWith('#!')) return 'script';
  if (/<svg[\s>]/.test(start)) return 'svg';
  if (start.startsWith('<!doctype html') || /^<(html|head|body|script|iframe)[\s>]/.test(start))
    return 'html';
  if (start.startsWith('<?xml') || start.startsWith('<!doctype')) return 'xml';
  return 'text';
}

/** A cut at 8 KiB may split a UTF-8 sequence: decode up to the last complete one. */
function lastCompleteUtf8(head: Buffer): number {
  const end = head.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = head[end - back] as number;
    if ((byte & 0xc0) === 0x80) continue; // continuation
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? end - back : end;
  }
  return end;
}

const extensionOf = (fileName: string) => {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot).toLowerCase() : '';
};
/**
 * A refused document as a reason names it: by its extension, never its name (a file name often names the
 * candidate, and a reason reaches logs, traces and `operation.failed`, which erasure cannot reach).
 */
const documentNamed = (fileName: string) => {
  const extension = extensionOf(fileName);
  return /^\.[a-z0-9]{1,10}$/.test(extension)
    ? `the ${extension} document`
    : 'the document (no usual extension)';
};
const mediaTypeOf = (contentType: string) => contentType.split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * The allowed type a document claims by its name and content type, or a PermanentMessageError saying why
 * not. Checked before downloading, so a refused type costs no transfer.
 */
export function claimedFileType(
  document: { fileName: string; contentType: string },
  allowed: readonly FileTypeName[],
  atsName: string,
  connectorId?: string,
): FileTypeName {
  const extension = extensionOf(document.fileName);
  const type = allowed.find((name) => FILE_TYPES[name].extensions.includes(extension));
  if (!type) {
    const list = allowed.flatMap((name) => FILE_TYPES[name].extensions).join(' ');
    throw new PermanentMessageError(
      `${documentNamed(document.fileName)} is not a file type sent to ${atsName} (allowed: ${list})`,
      connectorId,
    );
  }
  const mediaType = mediaTypeOf(document.contentType);
  if (!FILE_TYPES[type].contentTypes.includes(mediaType)) {
    throw new PermanentMessageError(
      `${documentNamed(document.fileName)} is named as ${FILE_TYPES[type].label} but its content type is ` +
        `"${mediaType}" (expected ${FILE_TYPES[type].contentTypes.join(' or ')})`,
      connectorId,
    );
  }
  return type;
}

/** After the download: the bytes must be what the name and content type say. */
export function checkFileBytes(
  document: { fileName: string },
  type: FileTypeName,
  content: Buffer,
  connectorId?: string,
): void {
  const kind = sniff(content);
  if (kind === FILE_TYPES[type].bytes) return;
  throw new PermanentMessageError(
    `${documentNamed(document.fileName)} is refused: its bytes are ${SNIFFED_LABELS[kind]}, not ${FILE_TYPES[type].label}; ` +
      'nothing uploaded',
    connectorId,
  );
}

/**
 * A file name safe to hand to an ATS and show to a recruiter: no control or bidi-override characters, no
 * path (separators become "_"), no leading dots; at most `maxLength` characters, the extension kept.
 */
export function cleanFileName(fileName: string, maxLength = 255): string {
  let name = fileName
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- removing control characters is the point of this pattern
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/[/\\]/g, '_')
    .trim()
    .replace(/^\.+/, '');
  if (name === '') name = 'document';
  if (name.length <= maxLength) return name;
  const extension = extensionOf(name);
  const keep = extension.length <= maxLength / 2 ? extension : '';
  const stem = [...name.slice(0, name.length - keep.length)];
  while (stem.length > 0 && stem.join('').length + keep.length > maxLength) stem.pop();
  return `${stem.join('')}${keep}`;
}
