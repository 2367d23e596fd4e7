"""Writing files so that a reader sees the old file or the new one, never half of one.

Every file toolwire writes (results.json, reports, saved fuzz failures, case
files, probe profiles) goes through ``write_atomic``: the text goes to a
temporary file in the target's folder, is flushed to disk (fsync), then
renamed over the target (``os.replace``, atomic on POSIX and Windows). A kill
or a full disk midway leaves the previous file as it was; the temporary file
is removed however the write ends (an exception, Ctrl-C, SIGTERM turned into
an exception by the command line). A failure is one ``FileWriteError`` line.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
import threading
from pathlib import Path

from toolwire.harness.errors import ToolwireError

_HINTS = {
    errno.ENOSPC: "free some disk space, or write elsewhere",
    errno.EDQUOT: "free some space under your quota, or write elsewhere",
    errno.EFBIG: "the file is larger than this system lets a process write",
    errno.EACCES: "choose a folder you can write to",
    errno.EPERM: "choose a folder you can write to",
    errno.EROFS: "the file system is read-only: choose another folder",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.EISDIR: "the path is a folder: name a file",
}


class FileWriteError(ToolwireError):
    """A file could not be written (disk full, no permission, a file where a
    folder should be). The previous file, if any, is unchanged."""

    exit_code = 2


class FileExistsRefused(FileWriteError):
    """The target exists and the caller asked not to replace it."""


def write_error(path: Path, error: OSError) -> FileWriteError:
    """A ``FileWriteError`` for ``error`` (from writing ``path``), one line."""
    blocker = _file_in_the_way(path)
    if blocker is not None:
        return FileWriteError(
            f"cannot write {path}: {blocker} is a file, not a folder",
            hint="choose another path, or move that file",
        )
    reason = error.strerror or type(error).__name__
    return FileWriteError(
        f"cannot write {path}: {reason}",
        hint=_HINTS.get(error.errno or 0, "check the path and the free space"),
    )


def write_atomic(path: Path, data: str | bytes, *, overwrite: bool = True) -> None:
    """Write ``data`` (text is written as UTF-8, newlines unchanged) to
    ``path`` atomically, creating its folder. With ``overwrite=False`` an
    existing file is kept and ``FileExistsRefused`` raised (checked by the
    rename itself, so no other writer can slip in between)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temp_name = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
    except OSError as error:
        raise write_error(path, error) from None
    temp = Path(temp_name)
    try:
        try:
            with os.fdopen(descriptor, "wb") as handle:
                handle.write(payload)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(temp, _mode_for(path))
            _move_into_place(temp, path, overwrite)
        except FileExistsRefused:
            raise
        except OSError as error:
            raise write_error(path, error) from None
        _sync_folder(path.parent)
    finally:
        # After a successful rename the name is gone (or, for a link, a second
        # name of the target): removing it is always right.
        with contextlib.suppress(OSError):
            temp.unlink()


def ensure_writable_folder(folder: Path) -> None:
    """Create ``folder`` if needed and prove a file can be written in it,
    so a long run is not wasted on a report it cannot save."""
    if folder.exists() and not folder.is_dir():
        raise FileWriteError(
            f"{folder} is a file, not a folder", hint="name a folder for the reports"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder, prefix=".toolwire-check-"):
            pass
    except OSError as error:
        raise write_error(folder, error) from None


def _file_in_the_way(path: Path) -> Path | None:
    """The nearest folder above ``path`` that exists as something else."""
    for parent in path.parents:
        if parent.exists() or parent.is_symlink():
            return None if parent.is_dir() else parent
    return None


def _move_into_place(temp: Path, path: Path, overwrite: bool) -> None:
    if overwrite:
        os.replace(temp, path)
        return
    try:
        os.link(temp, path)  # fails if `path` exists: no window for a race
    except FileExistsError:
        raise FileExistsRefused(
            f"{path} already exists", hint="pass --force to replace it"
        ) from None
    except OSError:
        # A file system without hard links: check, then rename (a small race).
        if path.exists() or path.is_symlink():
            raise FileExistsRefused(
                f"{path} already exists", hint="pass --force to replace it"
            ) from None
        os.replace(temp, path)


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable where the platform allows it."""
    with contextlib.suppress(OSError, AttributeError):
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


_umask_lock = threading.Lock()
_umask: int | None = None


def _mode_for(path: Path) -> int:
    """The replaced file's permissions, or what a plain ``open`` would give
    (mkstemp makes its file private, 0600)."""
    with contextlib.suppress(OSError):
        return path.stat().st_mode & 0o7777
    return 0o666 & ~_current_umask()


def _current_umask() -> int:
    global _umask
    with _umask_lock:
        if _umask is None:
            # Reading the umask means setting it; done once, under a lock.
            _umask = os.umask(0o022)
            os.umask(_umask)
        return _umask
