"""Files written whole: a reader, a crash or a kill at any instant finds the old file or the
new one, never a part of either.

The text goes to a new file beside the target (same folder, so the same file system), is
flushed and synced, and only then renamed over the target, an atomic step; the folder is
synced after it, so the rename itself survives a power cut. Until the rename the target is
untouched. A target that is there but not a regular file (a device such as ``/dev/null``, a
pipe, a folder) is refused (``OSError``), never replaced. A failure on the way (a full disk,
an error) removes the new file and raises; a kill leaves at most that new file, a hidden
``.NAME.PID-K.tmp`` beside the target, which nothing reads (``remove_left_beside`` takes it away
later: ``replay --update`` does). A file written over keeps its permission bits; given a
symbolic link, the link stays and the file it leads to is the one rewritten; a new file gets
the usual bits (0666 less the umask), as ``open`` would give it.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> write_whole(folder / "a.txt", "first\\n")
>>> write_whole(folder / "a.txt", "second\\n")
>>> (folder / "a.txt").read_text(), sorted(p.name for p in folder.iterdir())
('second\\n', ['a.txt'])
>>> write_whole(folder / "a.txt", "third\\n", replace=False)
Traceback (most recent call last):
FileExistsError: [Errno 17] File exists: '...a.txt'
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from pathlib import Path
from collections.abc import Iterable
from typing import BinaryIO


def write_whole(path: str | Path, text: str | bytes, *, replace: bool = True) -> None:
    """Write ``text`` (UTF-8, line ends as they are; ``bytes`` as they are) to ``path`` whole
    (see the module's text). With ``replace=False`` never over a file that exists:
    ``FileExistsError``, and nothing written. ``OSError`` as the system raises it (the target
    as it was)."""
    check_name(path)
    path = Path(path)
    if not replace and os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path))
    if os.path.exists(path) and not os.path.isfile(path):  # a device, a pipe, a folder: never replaced by a file
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    if os.path.islink(path):  # the file it leads to is rewritten; the link stays
        path = Path(os.path.realpath(path))
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode) if replace else None
    except FileNotFoundError:
        mode = None
    fd, tmp = _new_beside(path)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            if mode is not None:
                os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        if replace:
            os.replace(tmp, path)
        else:
            _link_new(tmp, path)
    except BaseException:
        _remove(tmp)
        raise
    _sync_folder(path.parent)


def _new_beside(path: Path) -> tuple[int, Path]:
    """A new, empty, hidden file in ``path``'s folder, open for writing: its descriptor and path.
    Created as ``open`` creates files (0666 less the umask), never over one that exists."""
    for k in range(1000):
        tmp = path.with_name(f".{path.name}.{os.getpid()}-{k}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), tmp
        except FileExistsError:  # left by a killed writer that had this process id
            continue
        except OSError as exc:  # named by the file asked for, not by the hidden one
            raise type(exc)(exc.errno, exc.strerror, str(path)) from None
    raise FileExistsError(errno.EEXIST, "no free name for a temporary file beside it", str(path))


def _link_new(tmp: Path, path: Path) -> None:
    """Put the whole file ``tmp`` at ``path`` unless a file is there: a hard link, which fails
    if one is, then ``tmp`` unlinked. Where the file system has no hard links, a rename after a
    last look (a file made between the look and the rename would be replaced)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV, errno.EMLINK):
            raise
        if os.path.lexists(path):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(path)) from None
        os.replace(tmp, path)
        return
    _remove(tmp)


LEFT_AGE_S = 3600
"""How old a file a killed writer left must be before ``remove_left_beside`` takes it away."""
_LEFT = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]{1,10})-[0-9]{1,3}\.tmp")


def remove_left_beside(paths: Iterable[str | Path]) -> int:
    """Remove the hidden files ``write_whole`` left beside ``paths`` when a writer was killed
    (``.NAME.PID-K.tmp``): only those of a process that is not running, and an hour old or more
    (a writer takes milliseconds; a folder shared with another machine, whose processes this one
    cannot see, keeps one that is newer). One look at each folder; what cannot be removed is
    left. How many were removed."""
    by_folder: dict[Path, set[str]] = {}
    for p in paths:
        real = Path(os.path.realpath(p))
        by_folder.setdefault(real.parent, set()).add(real.name)
    cutoff, removed = time.time() - LEFT_AGE_S, 0
    for folder, names in by_folder.items():
        try:
            with os.scandir(folder) as entries:
                left = [e for e in entries if (found := _LEFT.fullmatch(e.name)) is not None
                        and found["name"] in names and not _running(int(found["pid"]))]
        except OSError:
            continue
        for entry in left:
            try:
                if entry.is_file(follow_symlinks=False) and entry.stat(follow_symlinks=False).st_mtime < cutoff:
                    os.unlink(entry.path)
                    removed += 1
            except OSError:  # (gone meanwhile, or not ours to remove: the others still are)
                continue
    return removed


def _running(pid: int) -> bool:
    """Whether a process ``pid`` runs on this machine (one of another user's counts)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return pid > 0
    return True


def _remove(tmp: Path) -> None:
    try:
        os.unlink(tmp)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """Sync ``folder`` so a rename in it survives a power cut (where folders can be synced)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class NotRegularFile(OSError):
    """A path to read leads (links followed) to something other than a regular file: a folder,
    a device such as ``/dev/zero``, a FIFO, a socket. ``kind`` says which, in words."""

    def __init__(self, path: str | Path, kind: str) -> None:
        super().__init__(f"not a regular file ({kind})")
        self.path, self.kind = str(path), kind  # (not ``filename``: ``str()`` would then want an errno)


class FileTooLarge(ValueError):
    """A file to read holds more than ``limit`` bytes; ``size`` is how many it holds as far as
    they were counted: its size on disk, or ``limit + 1`` when it grew past the limit (or its
    size was wrong) while it was read."""

    def __init__(self, path: str | Path, size: int, limit: int) -> None:
        super().__init__(f"{size} bytes is more than {limit}")
        self.path, self.size, self.limit = str(path), size, limit


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    """What a file of ``mode`` is, in words, for a ``NotRegularFile``."""
    return next((name for test, name in _KINDS if test(mode)), "not a file of a known kind")


def files_under(folder: str | Path, suffixes: tuple[str, ...]) -> tuple[list[Path], list[str]]:
    """The files under ``folder`` whose names end in one of ``suffixes`` (a folder so named is
    looked into, not taken), folders a link leads to included, each folder once, sorted; and
    why each folder that could not be looked into could not (``FOLDER: cannot read the folder:
    REASON``): passed over without a word, its files went unchecked and the status said all
    was well."""
    found: list[Path] = []
    unreadable: list[str] = []
    seen: set[tuple[int, int]] = set()

    def failed(exc: OSError) -> None:
        unreadable.append(f"{exc.filename}: cannot read the folder: {exc.strerror or exc}")

    for root, folders, names in os.walk(folder, onerror=failed, followlinks=True):
        try:
            info = os.stat(root)
        except OSError as exc:
            failed(exc)
            folders[:] = []
            continue
        if (info.st_dev, info.st_ino) in seen:  # (a link back up the tree: looked into once)
            folders[:] = []
            continue
        seen.add((info.st_dev, info.st_ino))
        found += [Path(root, name) for name in names if name.endswith(suffixes)]
    return sorted(p for p in found if not p.is_dir()), sorted(unreadable)


def not_regular(path: str | Path) -> str | None:
    """What ``path`` (links followed) is, in words, when it is there but not a regular file
    (``"a character device"`` for ``/dev/null``); None for a regular file or nothing there."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else _kind(mode)


def dangling_link(path: str | bytes | Path, exc: OSError | None = None) -> str | None:
    """What ``path`` is, in words, when it is a symbolic link that leads nowhere: following it
    finds nothing (its target gone, or a way through a file) or goes round a loop of links;
    None for anything else (a link whose target is there but out of reach leads somewhere).
    ``exc``: what following it (``os.stat``) raised, where the caller has it; else it is
    followed here. One test for every reader that names such a link, where the system says
    only "No such file or directory" of a name ``ls`` lists.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> (folder / "link").symlink_to(folder / "gone")
    >>> dangling_link(folder / "link"), dangling_link(folder / "gone"), dangling_link(folder)
    ('a symbolic link that leads nowhere', None, None)
    >>> import shutil; shutil.rmtree(folder)
    """
    if exc is None:
        try:
            os.stat(path)
            return None
        except OSError as raised:
            exc = raised
    if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.ELOOP) and os.path.islink(path):
        return "a symbolic link that leads nowhere"
    return None


def not_utf8(exc: UnicodeDecodeError) -> str:
    """Where the bytes a ``UnicodeDecodeError`` was raised for stop being UTF-8, in words
    (line and column counted in bytes from 1), for a reader's refusal of a whole file.

    >>> try:
    ...     b"ok\\nno \\xff\\n".decode("utf-8")
    ... except UnicodeDecodeError as exc:
    ...     not_utf8(exc)
    'line 2 is not UTF-8 text (byte 0xff at column 4)'
    """
    data, at = bytes(exc.object), exc.start
    line, column = data.count(b"\n", 0, at) + 1, at - data.rfind(b"\n", 0, at)
    return f"line {line} is not UTF-8 text (byte 0x{data[at]:02x} at column {column})"


def read_text_capped(path: str | Path, limit: int) -> str:
    """The text of the regular file ``path`` (UTF-8; line ends as ``Path.read_text`` gives them,
    ``\\r\\n`` and ``\\r`` read as ``\\n``), refused if it holds more than ``limit`` bytes.

    A size on disk says nothing for a device (``/dev/zero`` has 0 and never ends) and opening a
    FIFO waits for a writer, so ``path`` (links followed) must be a regular file, which is
    checked before it is opened: ``NotRegularFile`` otherwise. It is opened without waiting
    and checked again (it may have been replaced meanwhile), and at most ``limit + 1`` bytes
    are read, so a file larger than its size said, or growing, is ``FileTooLarge`` too, and
    memory stays bounded. Raises ``NotRegularFile`` (an ``OSError``), ``FileTooLarge`` (a
    ``ValueError``), ``UnicodeDecodeError`` (a ``ValueError``) or the system's ``OSError``
    (no such file, no permission); each caller words its own message.

    >>> read_text_capped("/dev/null", 10)
    Traceback (most recent call last):
    arbiter.engine.files.NotRegularFile: not a regular file (a character device)
    """
    text = read_bytes_capped(path, limit).decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def check_name(path: str | Path) -> None:
    """An ``OSError`` (``EINVAL``, saying why) for a name no file can have, which the system's
    calls would refuse with Python's bare ``ValueError`` ("embedded null byte") or
    ``UnicodeEncodeError`` (a lone surrogate the file system's encoding cannot write; a byte
    the name's ``surrogateescape`` keeps, as from the command line, is written back as itself).

    >>> check_name("game\\ud800.yaml")
    Traceback (most recent call last):
    OSError: [Errno 22] the name holds a lone surrogate (U+D800), which no file's name may
    """
    name = os.fspath(path)
    if isinstance(name, str):
        if "\0" in name:
            raise OSError(errno.EINVAL, "the name holds a NUL character (U+0000), which no file's name may")
        try:
            os.fsencode(name)
        except UnicodeEncodeError as exc:
            raise OSError(errno.EINVAL, f"the name holds a lone surrogate (U+{ord(name[exc.start]):04X}), "
                                        "which no file's name may") from None


def read_bytes_capped(path: str | Path, limit: int) -> bytes:
    """``read_text_capped``'s bytes, undecoded (for a reader that decodes them itself): the same
    checks, the same errors but ``UnicodeDecodeError``."""
    check_name(path)
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotRegularFile(path, _kind(mode))
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    with open(fd, "rb") as f:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(path, _kind(info.st_mode))
        if info.st_size > limit:
            raise FileTooLarge(path, info.st_size, limit)
        data = _read_at_most(f, info.st_size, limit)
    if len(data) > limit:
        raise FileTooLarge(path, len(data), limit)
    return data


def _read_at_most(f: BinaryIO, expected: int, limit: int) -> bytes:
    """Up to ``limit + 1`` bytes of ``f``: the ``expected`` ones in one read (one buffer of
    their size, not of the limit's), then any more there are in small reads, kept in one
    growing buffer, until the end or the limit is passed."""
    data = f.read(expected + 1)
    more = bytearray()
    while len(data) + len(more) <= limit:
        chunk = f.read(min(1 << 16, limit + 1 - len(data) - len(more)))
        if not chunk:
            break
        more += chunk
    return data + more if more else data
