import { encodeMultipart, type MultipartPart } from './multipart';

/** The bytes `fetch` sends for the same entries (undici's encoder), with its boundary in place of ours (latin1). */
async function asFetchEncodesIt(parts: MultipartPart[], boundary: string): Promise<string> {
  const form = new FormData();
  for (const part of parts) {
    if ('content' in part)
      form.append(part.name, new Blob([part.content], { type: part.contentType }), part.filename);
    else form.append(part.name, part.value);
  }
  const response = new Response(form);
  const theirs = /boundary=(.+)$/.exec(response.headers.get('content-type') ?? '')?.[1] ?? '';
  return Buffer.from(await response.arrayBuffer())
    .toString('latin1')
    .split(theirs)
    .join(boundary);
}

const boundaryOf = (contentType: string) =>
  /^multipart\/form-data; boundary=(.+)$/.exec(contentType)?.[1] ?? '';

describe(encodeMultipart.name, () => {
  const cv: MultipartPart = {
    name: 'file',
    filename: 'Jane Doe CV.pdf',
    contentType: 'application/pdf',
    content: Buffer.concat([Buffer.from('%PDF-1.7\r\n'), Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x0d])]),
  };

  it('encodes a file and a field byte for byte as fetch encodes the same FormData', async () => {
    const parts: MultipartPart[] = [cv, { name: 'FileTypeId', value: '2' }];
    const { body, contentType } = encodeMultipart(parts);
    const boundary = boundaryOf(contentType);
    expect(boundary).toMatch(/^----connector-[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/);
    expect(body.toString('latin1')).toBe(await asFetchEncodesIt(parts, boundary));
  });

  it('escapes quotes and line breaks in names and file names, and sends field values with CRLF', async () => {
    const parts: MultipartPart[] = [
      { ...cv, filename: 'a "quoted"\nname\r.pdf', contentType: '' },
      { name: 'note\nwith "quotes"', value: 'line one\nline two\rline three\r\nend' },
    ];
    const { body, contentType } = encodeMultipart(parts);
    expect(body.toString('utf8')).toContain('filename="a %22quoted%22%0Aname%0D.pdf"');
    expect(body.toString('utf8')).toContain('Content-Type: application/octet-stream');
    expect(body.toString('utf8')).toContain('name="note%0D%0Awith %22quotes%22"');
    expect(body.toString('latin1')).toBe(await asFetchEncodesIt(parts, boundaryOf(contentType)));
  });

  it.each([
    ['upper case', 'Application/PDF', 'application/pdf'],
    [
      'a line break',
      'application/pdf\r\nContent-Disposition: form-data; name="FileTypeId"',
      'application/octet-stream',
    ],
    ['a byte beyond ASCII', 'application/pdf; name=é', 'application/octet-stream'],
  ])('sends a file type with %s as a Blob keeps it, as fetch does', async (_, claimed, sent) => {
    const parts: MultipartPart[] = [
      { ...cv, contentType: claimed },
      { name: 'FileTypeId', value: '3' },
    ];
    const { body, contentType } = encodeMultipart(parts);
    expect(body.toString('latin1')).toBe(await asFetchEncodesIt(parts, boundaryOf(contentType)));
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    expect([...form.keys()]).toEqual(['file', 'FileTypeId']);
    expect((form.get('file') as File).type).toBe(sent);
  });

  it('is read back whole by a multipart parser', async () => {
    const { body, contentType } = encodeMultipart([cv, { name: 'FileTypeId', value: '3' }]);
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    const file = form.get('file') as File;
    expect(file.name).toBe('Jane Doe CV.pdf');
    expect(file.type).toBe('application/pdf');
    expect(Buffer.from(await file.arrayBuffer())).toEqual(cv.content);
    expect(form.get('FileTypeId')).toBe('3');
  });
});
