"""Packed models: a model folder shipped as one ``NAME.tar.xz``, unpacked on
first use.

A large model is distributed as ``model/<game>/<name>.tar.xz`` (one
compressed file in git) and unpacked beside it into ``model/<game>/<name>/``.
The archive holds the folder's files flat as ``<name>/<file>``, the manifest
first, so the catalog reads a packed model's manifest without decompressing
its data files.

:func:`pack` writes an archive atomically; :func:`read_packed_manifest`
reads and checks its manifest; :func:`unpack` extracts it into a hidden
temporary folder, checks the model loads, and renames it into place. An
archive is trusted with nothing: any member that is not a plain file of the
model's folder, or too much data, is refused with a :class:`ModelError`
naming the archive and the member, and leaves nothing behind.
"""

from __future__ import annotations

import io
import lzma
import os
import shutil
import tarfile
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, cast

from . import store
from .fileformat import MANIFEST
from .model import ModelError
from .reader import parse_manifest
from .writer import fsync_dir

PACKED_SUFFIX = ".tar.xz"
#: The most bytes an archive may unpack to (its members' sizes added up).
MAX_UNPACKED_BYTES = 2 * 2**30
#: The most bytes a packed manifest may have (a large model's block digests
#: take a few MB).
MAX_MANIFEST_BYTES = 64 * 2**20
#: The most members an archive may hold (a model has three or four files).
MAX_MEMBERS = 64
_CHUNK = 2**20
# The reasons tarfile and lzma give for an archive they cannot read.
_UNREADABLE = (tarfile.TarError, lzma.LZMAError, EOFError, OSError, ValueError)


def packed_path(folder: Path) -> Path:
    """Return the archive beside the model folder ``folder``
    (``model/reversi/full`` -> ``model/reversi/full.tar.xz``)."""
    folder = Path(folder)
    return folder.with_name(folder.name + PACKED_SUFFIX)


def unpacked(folder: Path) -> Path:
    """Return the model folder ``folder``, first unpacking the archive beside
    it (:func:`unpack`) if one ships and the folder is missing or older: what
    a player of a packed model needs on its first use, as the page does."""
    archive = packed_path(folder)
    return unpack(archive) if archive.exists() else Path(folder)


def packed_name(archive: Path) -> str | None:
    """Return the name of the model packed in ``archive`` (``full`` for
    ``full.tar.xz``), or None if the file is not named ``NAME.tar.xz`` (hidden
    names are temporary files)."""
    name = archive.name[: -len(PACKED_SUFFIX)]
    if not archive.name.endswith(PACKED_SUFFIX) or not name or name.startswith("."):
        return None
    return name


def _model_name(archive: Path) -> str:
    """Return :func:`packed_name` of ``archive``; ModelError if it has none."""
    name = packed_name(archive)
    if name is None:
        raise ModelError(f"{archive}: a packed model is named NAME{PACKED_SUFFIX}")
    return name


def pack(folder: Path, out: Path | None = None) -> Path:
    """Write the model folder ``folder`` into the archive ``out`` (default:
    :func:`packed_path` of the folder) atomically; return the archive's path.

    Its members are the folder's regular files as ``<name>/<file>``, where
    ``<name>`` is the archive's name without ``.tar.xz`` (the folder's name
    by default), the manifest first. ModelError if ``folder`` is not a model.
    """
    folder = Path(folder)
    store.read_manifest(folder)  # refuses a folder that is not a model
    target = packed_path(folder) if out is None else Path(out)
    name = _model_name(target)
    files = sorted(
        entry.name
        for entry in os.scandir(folder)
        if entry.is_file(follow_symlinks=False) and entry.name != MANIFEST
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.tmp-", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as raw:
            with tarfile.open(fileobj=raw, mode="w:xz", preset=9) as tar:
                for file in [MANIFEST, *files]:
                    _add(tar, folder / file, f"{name}/{file}")
            raw.flush()
            os.fsync(raw.fileno())
        os.chmod(temp, 0o644)  # mkstemp makes it private; a model is for all to read
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    fsync_dir(target.parent)
    return target


def _add(tar: tarfile.TarFile, path: Path, member: str) -> None:
    """Add the file ``path`` to ``tar`` as ``member``, with no owner, time or
    permissions of this machine, so packing the same files twice gives the
    same archive (no change for git to store)."""
    info = tarfile.TarInfo(member)
    info.size = path.stat().st_size
    info.mode = 0o644
    with open(path, "rb") as data:
        tar.addfile(info, data)


@contextmanager
def _members(
    archive: Path, progress: Callable[[float], None] | None = None
) -> Iterator[tuple[tarfile.TarFile, Iterator[tarfile.TarInfo], lzma.LZMAFile]]:
    """Open ``archive`` as a stream; yield the tar, its members (each checked
    by :func:`_check_member`, the first the manifest) and the xz stream.

    The xz layer is ours, not tarfile's, so that a truncated or damaged stream
    raises (tarfile's own stream reader stops quietly at the end of the data);
    the archive's bytes pass through :class:`_Counted` for ``progress``.
    Whatever tarfile or lzma raise becomes a ModelError naming the archive."""
    name = _model_name(archive)
    try:
        raw = open(archive, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        raise ModelError(f"{archive}: cannot read ({error.strerror})") from None
    try:
        with raw:
            counted = _Counted(raw, os.fstat(raw.fileno()).st_size, progress)
            with (
                # LZMAFile only calls read(): the rest of IO is not needed.
                lzma.LZMAFile(cast(IO[bytes], counted)) as xz,
                tarfile.open(fileobj=xz, mode="r|") as tar,
            ):
                yield tar, _checked(archive, name, tar), xz
    except ModelError:
        raise
    except _UNREADABLE as error:
        detail = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise ModelError(f"{archive}: not a packed model ({detail})") from None


def _checked(
    archive: Path, name: str, tar: tarfile.TarFile
) -> Iterator[tarfile.TarInfo]:
    """Yield the members of ``tar`` after checking each (ModelError naming
    the archive and the member otherwise; or the archive, if it is empty)."""
    seen: set[str] = set()
    total = 0
    for member in tar:
        _check_member(archive, name, member, first=not seen)
        if member.name in seen:
            raise _bad_member(archive, member, "is in the archive twice")
        seen.add(member.name)
        if len(seen) > MAX_MEMBERS:
            raise _bad_member(archive, member, f"more than {MAX_MEMBERS} members")
        total += member.size
        if total > MAX_UNPACKED_BYTES:
            raise _bad_member(
                archive, member, f"takes the files over {MAX_UNPACKED_BYTES} bytes"
            )
        yield member
    if not seen:
        raise ModelError(f"{archive}: not a packed model (no members)")


def _check_member(
    archive: Path, name: str, member: tarfile.TarInfo, *, first: bool
) -> None:
    """Raise ModelError unless ``member`` is a regular file named
    ``<name>/<plain file name>`` (and, if ``first``, the manifest)."""
    # Only plain files: no links, devices or folders, and no sparse or
    # continued files (whose size in the header is not what they unpack to).
    if member.type not in (tarfile.REGTYPE, tarfile.AREGTYPE):
        raise _bad_member(archive, member, "is not a regular file")
    folder, _, file = member.name.partition("/")
    # One folder, named after the archive, and a file name with no path in
    # it: nothing can land outside the temporary folder.
    if folder != name or file in ("", ".", "..") or "/" in file or "\\" in file:
        raise _bad_member(archive, member, f"is not a file of {name}/")
    if "\0" in file:
        raise _bad_member(archive, member, "has a NUL in its name")
    if first and file != MANIFEST:
        raise _bad_member(archive, member, f"comes first, not {name}/{MANIFEST}")


def _bad_member(archive: Path, member: tarfile.TarInfo, why: str) -> ModelError:
    return ModelError(f"{archive}: member {member.name!r} {why}")


def read_packed_manifest(archive: Path) -> dict:
    """Return the manifest of the packed model ``archive``, checked as
    :func:`mcts.models.store.read_manifest` checks a folder's; only the first
    member is decompressed. Any fault raises ModelError naming the archive."""
    archive = Path(archive)
    with _members(archive) as (tar, members, _):
        return _read_manifest_member(archive, tar, next(members))[0]


def _read_manifest_member(
    archive: Path, tar: tarfile.TarFile, member: tarfile.TarInfo
) -> tuple[dict, bytes]:
    """Return the checked manifest in the archive's (first) ``member``, and
    its bytes."""
    if member.size > MAX_MANIFEST_BYTES:
        raise _bad_member(archive, member, f"exceeds {MAX_MANIFEST_BYTES} bytes")
    data = _file_of(tar, member).read()
    return parse_manifest(data, f"{archive}: {member.name}"), data


def _file_of(tar: tarfile.TarFile, member: tarfile.TarInfo) -> IO[bytes]:
    data = tar.extractfile(member)
    assert data is not None  # a regular file, checked by _check_member
    return data


class _Counted:
    """A file read through, calling ``progress(fraction of the bytes read)``
    each time another 1% has been read (so it costs nothing to ask for)."""

    def __init__(
        self, raw: IO[bytes], size: int, progress: Callable[[float], None] | None
    ) -> None:
        self.raw, self.size, self.progress = raw, max(1, size), progress
        self.done = 0
        self.reported = 0.0

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.done += len(data)
        if self.progress is not None:
            fraction = min(1.0, self.done / self.size)
            if fraction >= self.reported + 0.01 and fraction < 1.0:
                self.reported = fraction
                self.progress(fraction)
        return data

    def readable(self) -> bool:
        return True


_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_LOCK = threading.Lock()


def _lock_of(archive: Path) -> threading.Lock:
    """Return this process's lock of ``archive``, so that two threads
    unpacking it at once take turns (the second finds the folder made)."""
    with _LOCKS_LOCK:
        return _LOCKS.setdefault(str(archive.resolve()), threading.Lock())


def unpack(archive: Path, *, progress: Callable[[float], None] | None = None) -> Path:
    """Unpack the packed model ``archive`` (``NAME.tar.xz``) into the folder
    ``NAME`` beside it; return that folder (at once if it holds the archive's
    model already; a folder left from an older archive is replaced).

    The files are extracted into a hidden temporary folder, the model checked
    to load (quickly: the checksums, not every state), fsynced and renamed
    into place, so no half-unpacked model is ever seen. ``progress``, if given,
    is called with the fraction of the archive read, from 0 to 1, at most
    every 1%, and with 1.0 at the end. ModelError naming the archive (and the
    member) if it is not a whole model or holds anything but its files; then
    nothing is left behind."""
    archive = Path(archive)
    target = archive.parent / _model_name(archive)
    with _lock_of(archive):
        stale = is_stale(archive)
        if stale or not target.exists():
            _unpack_into(archive, target, progress, replace=stale)
    if progress is not None:
        progress(1.0)
    return target


def is_stale(archive: Path) -> bool:
    """Return whether the folder unpacked beside ``archive`` holds another
    model than the archive does (its manifest differs): the archive was
    replaced since, as a ``git pull`` of a rebuilt model does, so the folder
    is to be unpacked again. False if there is no such folder, and if the
    archive cannot be read (the folder is then the model there is)."""
    return unpacked_state(archive) == "stale"


def unpacked_state(archive: Path) -> str:
    """Return ``"missing"`` if no model folder is unpacked beside ``archive``
    (no manifest can be read there), ``"stale"`` if it holds another model
    (see :func:`is_stale`), else ``"current"`` (also when the archive cannot
    be read: the folder is then the model there is). The folder's manifest
    is read once, so the answer holds for one moment even while an unpack
    replaces the folder."""
    archive = Path(archive)
    name = packed_name(archive)
    if name is None:
        return "missing"
    try:
        unpacked = (archive.parent / name / MANIFEST).read_bytes()
    except OSError:
        return "missing"
    try:
        with _members(archive) as (tar, members, _):
            shipped = _read_manifest_member(archive, tar, next(members))[1]
    except ModelError:
        return "current"
    return "current" if unpacked == shipped else "stale"


def _unpack_into(
    archive: Path,
    target: Path,
    progress: Callable[[float], None] | None,
    *,
    replace: bool = False,
) -> None:
    """Unpack ``archive`` into a temporary folder beside it, check it, and
    rename it to ``target`` (unless another process got there first); with
    ``replace``, the stale ``target`` there is set aside first."""
    if progress is not None:
        progress(0.0)
    # Hidden, so the catalog does not list it; unique, so that two processes
    # unpacking at once do not write into one folder.
    temp = Path(
        tempfile.mkdtemp(
            prefix=f".unpack-{target.name}-{os.getpid()}-", dir=target.parent
        )
    )
    try:
        _extract(archive, temp, progress)
        try:
            store.load(temp, check="fast")
        except ModelError as error:
            # The check names the temporary folder's files: name the archive's.
            where = f"{archive}: {target.name}"
            raise ModelError(str(error).replace(str(temp), where)) from None
        fsync_dir(temp)
        os.chmod(temp, 0o755)  # mkdtemp makes it private; a model is for all
        if replace:
            _set_aside(target)
        try:
            os.rename(temp, target)
        except OSError:
            # Another process unpacked it first: theirs is as good as ours.
            if not target.exists():
                raise
            shutil.rmtree(temp, ignore_errors=True)
            return
        fsync_dir(target.parent)
    except BaseException:
        shutil.rmtree(temp, ignore_errors=True)
        raise


def _set_aside(target: Path) -> None:
    """Move a stale ``target`` (see :func:`is_stale`) to a hidden name and
    delete it, so the new model can be renamed into its place. A crash in
    between leaves no folder, and the next use unpacks the archive again."""
    if not target.exists():
        return  # another process set it aside first
    old = Path(
        tempfile.mkdtemp(
            prefix=f".stale-{target.name}-{os.getpid()}-", dir=target.parent
        )
    )
    os.rename(target, old / target.name)
    shutil.rmtree(old, ignore_errors=True)


def _extract(
    archive: Path, temp: Path, progress: Callable[[float], None] | None
) -> None:
    """Write the checked members of ``archive`` into the folder ``temp``,
    then read the xz stream to its end (so its final check is verified)."""
    with _members(archive, progress) as (tar, members, xz):
        for member in members:
            path = temp / member.name.partition("/")[2]
            if path.name == MANIFEST:  # the first member, _checked made sure
                # Checked before the data files are decompressed, so a wrong
                # archive is refused at once.
                data = _read_manifest_member(archive, tar, member)[1]
                _write(archive, path, io.BytesIO(data))
            else:
                _write(archive, path, _file_of(tar, member))
        while xz.read(_CHUNK):  # the end-of-archive blocks and the xz footer
            pass


def _write(archive: Path, path: Path, source: IO[bytes]) -> None:
    """Create the file ``path`` with the bytes of ``source`` and fsync it; a
    fault of the disk is a ModelError too (not taken for one of the archive)."""
    try:
        with open(path, "xb") as out:
            shutil.copyfileobj(source, out, _CHUNK)
            out.flush()
            os.fsync(out.fileno())
    except OSError as error:
        raise ModelError(
            f"{archive}: cannot write {path} ({error.strerror or error})"
        ) from None
