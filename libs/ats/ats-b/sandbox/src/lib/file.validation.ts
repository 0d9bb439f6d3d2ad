import { AtsBError } from './ats-b.error';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILE_NAME = 100;
const BLOCKED_EXTENSIONS = ['.exe', '.js', '.html', '.htm', '.php', '.asp', '.aspx', '.jsp', '.cfm'];

/** Name rules from ats-b.md: ≤100 characters, executables and scripts refused (400). */
export function checkFileName(name: string): void {
  if (name.trim() === '') throw AtsBError.badRequest('File name is empty', 'errors.file.invalidName');
  if (name.length > MAX_FILE_NAME) {
    throw AtsBError.badRequest(`File name exceeds ${MAX_FILE_NAME} characters`, 'errors.file.nameTooLong');
  }
  const lower = name.toLowerCase().trim();
  const blocked = BLOCKED_EXTENSIONS.find((ext) => lower.endsWith(ext));
  if (blocked)
    throw AtsBError.badRequest(`Files of type ${blocked} are not allowed`, 'errors.file.invalidFileType');
}

/** Oversized files answer 413 (choice: Bullhorn's docs only state the 10 MB limit). */
export function checkFileSize(bytes: number): void {
  if (bytes > MAX_FILE_BYTES) {
    throw new AtsBError(
      413,
      'errors.file.tooLarge',
      `File exceeds the ${MAX_FILE_BYTES} byte limit (${bytes} bytes)`,
    );
  }
  if (bytes === 0) throw AtsBError.badRequest('File is empty', 'errors.file.empty');
}

/** Strict base64 (standard alphabet, padding optional; whitespace tolerated as MIME encoders add it). */
export function decodeBase64(content: string): Buffer {
  const compact = content.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw AtsBError.badRequest('fileContent is not valid base64', 'errors.file.invalidContent');
  }
  return Buffer.from(compact, 'base64');
}
