/**
 * The one way the kit creates a file it was asked to write (a report, a saved
 * counterexample): its folders are made, and the file itself is opened
 * without following a symbolic link, so a link planted where the file goes
 * (a counterexample folder in a checkout, a report path in a CI workspace) is
 * refused, named, instead of overwriting what it points at. A path under
 * /dev/ (/dev/stdout, /dev/null) is the caller's own choice, not a plant, and
 * is written as given.
 */
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** A file that could not be written, with the reason in words: `cannot write FILE: REASON`. */
export class WriteFileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`cannot write ${file}: ${reason}`);
    this.name = 'WriteFileError';
  }
}

const { O_WRONLY, O_CREAT, O_TRUNC, O_NOFOLLOW, O_NONBLOCK } = constants;

const isDevice = (path: string): boolean => resolve(path).startsWith('/dev/');

/** The reason a write failed, in words; the code as Node gives it stays at the end. */
export function writeFailureReason(path: string, e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  const code = err.code ?? '';
  switch (code) {
    case 'ELOOP':
      return 'it is a symbolic link: refused, so that a link planted there cannot send the write elsewhere';
    case 'ENAMETOOLONG':
      return 'the name is longer than the file system allows (ENAMETOOLONG)';
    case 'ENOTDIR':
    case 'EEXIST':
      return `a part of its folder ${dirname(path)} is a file, not a folder (${code})`;
    case 'EISDIR':
      return 'it is a folder (EISDIR)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code})`;
    case 'ENOSPC':
      return 'no space left on the device (ENOSPC)';
    case 'EROFS':
      return 'the file system is read-only (EROFS)';
    case 'ENXIO':
      return 'it is a FIFO with no reader (ENXIO)';
    default:
      return err.message ?? String(e);
  }
}

/** Create or replace `path` with `text`, making its folders; throws WriteFileError naming the file and the reason. */
export function writeFileNoFollow(path: string, text: string): void {
  let fd: number | undefined;
  try {
    mkdirSync(dirname(path), { recursive: true });
    const device = isDevice(path);
    // O_NOFOLLOW is absent on Windows: there the link is looked for before the open.
    if (!device && O_NOFOLLOW === undefined && lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink())
      throw Object.assign(new Error('symbolic link'), { code: 'ELOOP' });
    // O_NONBLOCK: a FIFO planted at the path fails at once (ENXIO) instead of waiting for a reader.
    fd = device ? openSync(path, 'w') : openSync(path, O_WRONLY | O_CREAT | O_TRUNC | (O_NOFOLLOW ?? 0) | (O_NONBLOCK ?? 0), 0o666);
    if (!device && !fstatSync(fd).isFile()) throw new WriteFileError(path, 'it is not a regular file (a FIFO, socket or device), refused');
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (e) {
    if (e instanceof WriteFileError) throw e;
    throw new WriteFileError(path, writeFailureReason(path, e));
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
