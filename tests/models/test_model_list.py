"""The list of models on disk (mcts.list_models): a damaged model is listed
as damaged, naming the file and line inside its folder, and never breaks the
list of the others."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mcts import list_models
from mcts.models import store

SHIPPED = store.model_path("reversi", "light")
MANIFEST = json.loads((SHIPPED / store.MANIFEST).read_text())


def _manifest(**changes) -> str:
    return json.dumps(dict(MANIFEST, **changes))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[]", "manifest.json: not a mcts-tree-model manifest"),
        ('"a string"', "manifest.json: not a mcts-tree-model manifest"),
        ("7", "manifest.json: not a mcts-tree-model manifest"),
        ("{}", "manifest.json: not a mcts-tree-model manifest"),
        ('{\n"format": oops}', "manifest.json line 2: not JSON (Expecting value)"),
        (b"\xff{}", "manifest.json: not JSON (not UTF-8"),
        ("[" * 100_000 + "]" * 100_000, "manifest.json: not JSON (nested too deeply)"),
        ('{"nodes": 1' + "0" * 5000 + "}", "manifest.json: not JSON (Exceeds"),
        (_manifest(version=3), "manifest.json: format version 3 is not supported"),
        (_manifest(version=True), "manifest.json: format version True is not"),
        (_manifest(nodes=True), "manifest.json: bad node count True"),
        (_manifest(nodes="many"), "manifest.json: bad node count 'many'"),
        (_manifest(nodes=10**30), "manifest.json: bad node count too large"),
        (_manifest(files=[]), "manifest.json: no valid checksums for nodes.jsonl"),
        (_manifest(game="gomoku"), "manifest.json: the model is for 'gomoku'"),
    ],
)
def test_a_damaged_manifest_is_listed_as_damaged_beside_the_others(
    tmp_path, text, reason
):
    shutil.copytree(SHIPPED, tmp_path / "reversi" / "light")
    damaged = tmp_path / "reversi" / "broken"
    shutil.copytree(SHIPPED, damaged)
    data = text if isinstance(text, bytes) else text.encode()
    (damaged / store.MANIFEST).write_bytes(data)
    broken, light = list_models(tmp_path, "reversi")
    assert broken.name == "broken" and broken.nodes is None and broken.built is None
    assert broken.damaged.startswith(reason)
    assert light.damaged is None and light.nodes == MANIFEST["nodes"]
    assert str(tmp_path) not in json.dumps([m.to_json() for m in (broken, light)])


def test_a_data_file_of_another_size_is_listed_with_its_file_and_line(tmp_path):
    for name in ("short", "long", "missing"):
        shutil.copytree(SHIPPED, tmp_path / "reversi" / name)
    nodes = (SHIPPED / store.NODES).read_bytes()
    cut = nodes.index(b"\n", len(nodes) // 2) + 10  # within line `whole + 1`
    (tmp_path / "reversi" / "short" / store.NODES).write_bytes(nodes[:cut])
    whole = nodes[:cut].count(b"\n")
    states = (SHIPPED / store.STATES).read_bytes()
    (tmp_path / "reversi" / "long" / store.STATES).write_bytes(states + b"{}\n")
    (tmp_path / "reversi" / "missing" / store.STATES).unlink()
    found = {m.name: m.damaged for m in list_models(tmp_path, "reversi")}
    assert found["short"] == (
        f"nodes.jsonl line {whole + 1}: truncated line (no newline at the end)"
    )
    assert found["long"] == (
        f"states.jsonl line {MANIFEST['nodes'] + 1}: extra line "
        f"(the manifest says {MANIFEST['nodes']})"
    )
    assert found["missing"] == "states.jsonl: cannot read (No such file or directory)"


def test_hidden_folders_and_folders_without_a_manifest_are_not_models(tmp_path):
    shutil.copytree(SHIPPED, tmp_path / "reversi" / ".light.tmp-x1")
    (tmp_path / "reversi" / "notes").mkdir()
    (tmp_path / "reversi" / "notes" / "nodes.jsonl").write_text("{}\n")
    assert list_models(tmp_path, "reversi") == []
    assert list_models(Path(tmp_path) / "nowhere", "reversi") == []
