"""Packed models (mcts.models.packed): a model folder packed into one
``NAME.tar.xz``, listed by the catalog before it is unpacked, unpacked safely
on first use; a hostile or damaged archive is refused with a ModelError naming
it and the member, and leaves nothing behind."""

from __future__ import annotations

import io
import json
import shutil
import tarfile
import threading
from pathlib import Path

import pytest

from mcts import (
    PACKED_SUFFIX,
    ModelError,
    find_game,
    find_player,
    list_models,
    pack_model,
    packed_path,
    unpack_model,
)
from mcts.cli.main import main
from mcts.models import packed, store

SHIPPED = store.model_path("reversi", "light")
MANIFEST_BYTES = (SHIPPED / store.MANIFEST).read_bytes()
NODES = json.loads(MANIFEST_BYTES)["nodes"]
FILES = sorted(path.name for path in SHIPPED.iterdir())


@pytest.fixture(scope="module")
def shipped_archive(tmp_path_factory) -> Path:
    """The light model packed once (packing takes seconds): ``light.tar.xz``."""
    folder = tmp_path_factory.mktemp("packed") / "light"
    shutil.copytree(SHIPPED, folder)
    return pack_model(folder)


@pytest.fixture
def archive(tmp_path, shipped_archive) -> Path:
    """A copy of the packed light model at ``tmp_path/reversi/light.tar.xz``,
    its folder not unpacked."""
    (tmp_path / "reversi").mkdir()
    return Path(shutil.copy(shipped_archive, tmp_path / "reversi"))


def _entries(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def _tar_xz(path: Path, members: list[tuple[str, bytes] | tarfile.TarInfo]) -> Path:
    """Write ``path`` as a tar.xz of ``members``: (name, bytes) for a regular
    file, or a TarInfo as it is (a link, a folder)."""
    with tarfile.open(path, "w:xz", preset=0) as tar:
        for member in members:
            if isinstance(member, tarfile.TarInfo):
                tar.addfile(member)
            else:
                info = tarfile.TarInfo(member[0])
                info.size = len(member[1])
                tar.addfile(info, io.BytesIO(member[1]))
    return path


def _link(name: str, kind: bytes, target: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info


def _directory(name: str) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = tarfile.DIRTYPE
    return info


def test_pack_then_unpack_gives_back_the_same_model(tmp_path, shipped_archive):
    folder = tmp_path / "reversi" / "light"
    shutil.copytree(SHIPPED, folder)
    archive = pack_model(folder)
    assert archive == packed_path(folder) == tmp_path / "reversi" / "light.tar.xz"
    assert archive.name == "light" + PACKED_SUFFIX
    assert archive.stat().st_size < 0.8 * sum(
        (SHIPPED / name).stat().st_size for name in FILES
    )
    # the same files give the same bytes: repacking changes nothing for git
    assert archive.read_bytes() == shipped_archive.read_bytes()
    shutil.rmtree(folder)
    assert unpack_model(archive) == folder
    assert _entries(folder.parent) == ["light", "light.tar.xz"]
    assert _entries(folder) == FILES
    for name in FILES:
        assert (folder / name).read_bytes() == (SHIPPED / name).read_bytes()
    assert store.load(folder).nodes == NODES


def test_the_manifest_is_the_first_member_and_read_alone(archive):
    with tarfile.open(archive, "r:xz") as tar:
        names = tar.getnames()
        first = tar.getmembers()[0]
        assert tar.extractfile(first).read() == MANIFEST_BYTES
    assert names == ["light/manifest.json"] + [
        f"light/{name}" for name in FILES if name != store.MANIFEST
    ]
    assert packed.read_packed_manifest(archive) == json.loads(MANIFEST_BYTES)


def test_pack_refuses_a_folder_that_is_not_a_model(tmp_path):
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "nodes.jsonl").write_text("{}\n")
    with pytest.raises(ModelError, match="manifest.json: cannot read"):
        pack_model(tmp_path / "notes")
    (tmp_path / "notes" / "manifest.json").write_text("{}")
    with pytest.raises(ModelError, match="not a mcts-tree-model manifest"):
        pack_model(tmp_path / "notes")
    assert _entries(tmp_path) == ["notes"]


def test_the_catalog_lists_a_packed_model_until_it_is_unpacked(archive, tmp_path):
    shutil.copytree(SHIPPED, tmp_path / "reversi" / "aaa")
    size = archive.stat().st_size
    aaa, light = list_models(tmp_path, "reversi")
    assert (aaa.name, aaa.packed) == ("aaa", False)
    assert (light.name, light.packed, light.nodes) == ("light", True, NODES)
    assert light.bytes == size and light.damaged is None
    assert light.built == json.loads(MANIFEST_BYTES)["built"]
    assert light.to_json()["packed"] is True
    unpack_model(archive)
    listed = list_models(tmp_path, "reversi")
    assert [(m.name, m.packed, m.nodes) for m in listed] == [
        ("aaa", False, NODES),
        ("light", False, NODES),
    ]
    assert listed[1].bytes > size


def test_a_model_unpacked_while_the_catalog_reads_is_listed_as_packed(
    archive, tmp_path, monkeypatch
):
    # The unpack renames its folder into place after the catalog read the
    # folder's entries: the model is still listed (as packed), not lost.
    root = tmp_path / "reversi"
    entries = sorted(root.iterdir())
    unpack_model(archive)
    monkeypatch.setattr(Path, "iterdir", lambda self: iter(entries))
    assert [(m.name, m.packed) for m in list_models(tmp_path, "reversi")] == [
        ("light", True)
    ]


def test_progress_rises_from_0_to_1(archive):
    seen: list[float] = []
    unpack_model(archive, progress=seen.append)
    assert seen[0] == 0.0 and seen[-1] == 1.0
    assert all(a < b for a, b in zip(seen, seen[1:], strict=False))
    assert 10 < len(seen) <= 102  # every 1% at the most


def test_unpack_returns_a_folder_of_the_archives_model_untouched(archive):
    folder = archive.parent / "light"
    folder.mkdir()
    (folder / store.MANIFEST).write_bytes(MANIFEST_BYTES)
    (folder / "mine").write_text("kept")
    assert not packed.is_stale(archive)
    assert unpack_model(archive) == folder
    assert _entries(folder) == [store.MANIFEST, "mine"]


def _unpacked_from_an_older_archive(archive: Path) -> Path:
    """Unpack ``archive``, then make its folder look unpacked from an older
    build: another manifest (one more game in ``built``) and a leftover file."""
    folder = unpack_model(archive)
    manifest = json.loads(MANIFEST_BYTES)
    manifest["built"]["games"] = manifest["built"].get("games", 0) + 1
    (folder / store.MANIFEST).write_text(json.dumps(manifest))
    (folder / "leftover").write_text("old")
    return folder


def test_a_folder_unpacked_from_an_older_archive_is_replaced(archive):
    # A user pulls a rebuilt full model: their unpacked folder is the old one.
    folder = _unpacked_from_an_older_archive(archive)
    assert packed.is_stale(archive)
    assert unpack_model(archive) == folder
    assert _entries(folder) == FILES
    assert (folder / store.MANIFEST).read_bytes() == MANIFEST_BYTES
    assert not packed.is_stale(archive)
    assert _entries(archive.parent) == ["light", "light.tar.xz"]  # nothing aside
    store.load(folder)


def test_the_catalog_lists_a_stale_folder_as_its_packed_model(archive, tmp_path):
    _unpacked_from_an_older_archive(archive)
    (light,) = list_models(tmp_path, "reversi")
    assert (light.name, light.packed, light.nodes) == ("light", True, NODES)
    assert light.built == json.loads(MANIFEST_BYTES)["built"]
    assert light.bytes == archive.stat().st_size


def test_a_stale_folder_set_aside_while_the_catalog_reads_is_listed_as_packed(
    archive, tmp_path, monkeypatch
):
    # An unpack replacing a stale folder sets it aside after the catalog read
    # the folder's entries and before its new folder is renamed into place:
    # the model is still listed (as packed), not lost (a status poll got a
    # 404 in CI).
    folder = _unpacked_from_an_older_archive(archive)
    root = tmp_path / "reversi"
    entries = sorted(root.iterdir())
    shutil.rmtree(folder)
    monkeypatch.setattr(Path, "iterdir", lambda self: iter(entries))
    assert [(m.name, m.packed) for m in list_models(tmp_path, "reversi")] == [
        ("light", True)
    ]


def test_a_folder_beside_an_unreadable_archive_is_kept(archive):
    folder = unpack_model(archive)
    archive.write_bytes(b"not xz")
    assert not packed.is_stale(archive)
    assert unpack_model(archive) == folder
    assert _entries(folder) == FILES


def test_two_threads_unpacking_at_once_both_get_the_folder(archive):
    start = threading.Barrier(2)
    results: list[Path | BaseException] = []

    def run() -> None:
        start.wait()
        try:
            results.append(unpack_model(archive))
        except BaseException as error:  # noqa: BLE001 - reported by the assert
            results.append(error)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [archive.parent / "light"] * 2
    assert _entries(archive.parent) == ["light", "light.tar.xz"]
    assert _entries(archive.parent / "light") == FILES


def test_a_folder_another_process_made_first_wins(archive, monkeypatch):
    load = store.load

    def other_process_first(path, **kwargs):
        shutil.copytree(SHIPPED, archive.parent / "light")
        (archive.parent / "light" / "theirs").write_text("")
        return load(path, **kwargs)

    monkeypatch.setattr(packed.store, "load", other_process_first)
    assert unpack_model(archive) == archive.parent / "light"
    assert "theirs" in _entries(archive.parent / "light")
    assert _entries(archive.parent) == ["light", "light.tar.xz"]


def _refused(archive: Path, match: str) -> None:
    """Assert that unpacking ``archive`` is refused with a ModelError naming
    it and matching ``match``, and leaves nothing but the archive."""
    with pytest.raises(ModelError, match=match) as refused:
        unpack_model(archive)
    assert archive.name in str(refused.value)
    assert _entries(archive.parent) == [archive.name]


MANIFEST_MEMBER = ("light/manifest.json", MANIFEST_BYTES)


@pytest.mark.parametrize(
    ("members", "match"),
    [
        ([MANIFEST_MEMBER, ("../evil", b"x")], r"member '\.\./evil' is not a file"),
        ([MANIFEST_MEMBER, ("light/../evil", b"x")], r"'light/\.\./evil' is not a"),
        ([MANIFEST_MEMBER, ("/tmp/evil", b"x")], "member '/tmp/evil' is not a file"),
        ([MANIFEST_MEMBER, ("light/a/b", b"x")], "member 'light/a/b' is not a file"),
        ([MANIFEST_MEMBER, ("other/x", b"x")], "member 'other/x' is not a file of"),
        ([("other/manifest.json", MANIFEST_BYTES)], "'other/manifest.json' is not"),
        (
            [MANIFEST_MEMBER, _link("light/nodes.jsonl", tarfile.SYMTYPE, "/etc")],
            "member 'light/nodes.jsonl' is not a regular file",
        ),
        (
            [MANIFEST_MEMBER, _link("light/x", tarfile.LNKTYPE, "light/manifest.json")],
            "member 'light/x' is not a regular file",
        ),
        ([_directory("light"), MANIFEST_MEMBER], "member 'light' is not a regular"),
        (
            [("light/nodes.jsonl", b""), MANIFEST_MEMBER],
            "member 'light/nodes.jsonl' comes first, not light/manifest.json",
        ),
        (
            [MANIFEST_MEMBER, MANIFEST_MEMBER],
            "member 'light/manifest.json' is in the archive twice",
        ),
        ([], r"not a packed model \(no members\)"),
        ([("light/manifest.json", b"{}")], "light/manifest.json: not a mcts-tree"),
    ],
)
def test_a_hostile_archive_is_refused_naming_the_member(tmp_path, members, match):
    (tmp_path / "reversi").mkdir()
    archive = _tar_xz(tmp_path / "reversi" / "light.tar.xz", members)
    _refused(archive, match)
    assert not (tmp_path / "evil").exists() and not Path("/tmp/evil").exists()


def test_read_packed_manifest_refuses_what_unpack_refuses(tmp_path):
    archive = _tar_xz(tmp_path / "light.tar.xz", [("light/nodes.jsonl", b"")])
    with pytest.raises(ModelError, match="'light/nodes.jsonl' comes first"):
        packed.read_packed_manifest(archive)
    renamed = shutil.copy(archive, tmp_path / "full.tar.xz")
    with pytest.raises(ModelError, match="'light/nodes.jsonl' is not a file of full/"):
        packed.read_packed_manifest(Path(renamed))


def test_more_than_the_size_cap_is_refused(archive, monkeypatch):
    # the manifest and nodes.jsonl fit, patterns.npz takes the sum over
    sizes = {name: (SHIPPED / name).stat().st_size for name in FILES}
    cap = sizes["manifest.json"] + sizes["nodes.jsonl"] + sizes["patterns.npz"] - 1
    monkeypatch.setattr(packed, "MAX_UNPACKED_BYTES", cap)
    _refused(archive, f"member 'light/patterns.npz' takes the files over {cap}")


@pytest.mark.parametrize(
    ("data", "match"),
    [
        (b"not an archive", r"light\.tar\.xz: not a packed model \("),
        (b"", r"light\.tar\.xz: not a packed model \("),
    ],
)
def test_a_file_that_is_not_xz_is_refused(tmp_path, data, match):
    (tmp_path / "reversi").mkdir()
    archive = tmp_path / "reversi" / "light.tar.xz"
    archive.write_bytes(data)
    _refused(archive, match)
    with pytest.raises(ModelError, match=match):
        packed.read_packed_manifest(archive)


@pytest.mark.parametrize("keep", [0.5, -4])
def test_a_truncated_archive_is_refused(archive, keep):
    data = archive.read_bytes()
    cut = int(len(data) * keep) if keep > 0 else len(data) + keep
    archive.write_bytes(data[:cut])
    _refused(archive, r"light\.tar\.xz: not a packed model \(")


def test_a_model_that_does_not_load_is_refused_naming_the_file(tmp_path):
    (tmp_path / "reversi").mkdir()
    damaged = bytearray((SHIPPED / store.NODES).read_bytes())
    damaged[100] ^= 1
    members: list = [MANIFEST_MEMBER, ("light/nodes.jsonl", bytes(damaged))]
    for name in ("patterns.npz", "states.jsonl"):
        members.append((f"light/{name}", (SHIPPED / name).read_bytes()))
    archive = _tar_xz(tmp_path / "reversi" / "light.tar.xz", members)
    _refused(archive, r"light\.tar\.xz: light/nodes\.jsonl: lines \d+-\d+: checksum")


def test_a_damaged_packed_model_is_listed_as_damaged_beside_the_others(
    archive, tmp_path
):
    root = tmp_path / "reversi"
    _tar_xz(root / "broken.tar.xz", [("broken/manifest.json", b"{}")])
    (root / "junk.tar.xz").write_bytes(b"junk")
    other = json.dumps(dict(json.loads(MANIFEST_BYTES), game="gomoku")).encode()
    _tar_xz(root / "gomoku.tar.xz", [("gomoku/manifest.json", other)])
    (root / ".light.tar.xz.tmp-x1").write_bytes(b"")  # a pack under way
    found = {m.name: m for m in list_models(tmp_path, "reversi")}
    assert list(found) == ["broken", "gomoku", "junk", "light"]
    assert found["broken"].damaged == (
        "broken.tar.xz: broken/manifest.json: not a mcts-tree-model manifest"
    )
    assert found["gomoku"].damaged == (
        "gomoku.tar.xz: gomoku/manifest.json: the model is for 'gomoku'"
    )
    assert found["junk"].damaged.startswith("junk.tar.xz: not a packed model (")
    assert all(found[name].packed for name in found)
    assert found["broken"].nodes is None and found["broken"].bytes > 0
    assert found["light"].damaged is None and found["light"].nodes == NODES
    assert str(tmp_path) not in json.dumps([m.to_json() for m in found.values()])


def test_the_pack_and_unpack_commands(tmp_path, capsys, shipped_archive):
    folder = tmp_path / "reversi" / "light"
    shutil.copytree(SHIPPED, folder)
    out = tmp_path / "out" / "light.tar.xz"
    assert main(["model", "pack", str(folder), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    folder_mb = sum((SHIPPED / name).stat().st_size for name in FILES) / 1e6
    assert printed.startswith(f"{out}: ")
    assert f"% of the folder's {folder_mb:.2f} MB" in printed
    assert out.read_bytes() == shipped_archive.read_bytes()
    assert main(["model", "unpack", str(out)]) == 0
    assert capsys.readouterr().out == f"{tmp_path / 'out' / 'light'}\n"
    assert _entries(tmp_path / "out" / "light") == FILES
    (tmp_path / "bad.tar.xz").write_bytes(b"bad")
    assert main(["model", "unpack", str(tmp_path / "bad.tar.xz")]) == 2
    assert "bad.tar.xz: not a packed model" in capsys.readouterr().err
    assert main(["model", "pack", str(folder), "--out", str(tmp_path / "x.zip")]) == 2
    assert "a packed model is named NAME.tar.xz" in capsys.readouterr().err


def test_a_player_of_a_packed_model_unpacks_it_on_first_use(archive):
    folder = archive.parent / "light"
    assert not folder.exists()
    game = find_game("reversi")
    player = find_player(f"mcts-heavy:model={folder},sims=20", game)
    assert _entries(folder) == FILES
    assert player.choose(game.initial_state()) in game.legal_moves(game.initial_state())
