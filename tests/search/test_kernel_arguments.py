"""Every numba kernel of the library takes 8 arguments or fewer (issue 62):
what belongs together travels as one tuple (a board's size and row, a
search's window), and a helper called at every node is inlined or reads its
frame from the stack, so the count stays small at no cost in speed."""

from __future__ import annotations

import ast
from pathlib import Path

import mcts

MAX_ARGUMENTS = 8


def _is_kernel(function: ast.FunctionDef) -> bool:
    for decorator in function.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Name) and target.id == "njit":
            return True
    return False


def test_no_kernel_takes_more_than_eight_arguments():
    root = Path(mcts.__file__).parent
    kernels, wide = 0, []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and _is_kernel(node):
                kernels += 1
                if len(node.args.args) > MAX_ARGUMENTS:
                    wide.append(f"{path.relative_to(root)}:{node.name}")
    assert kernels > 100  # the scan sees the kernels
    assert wide == []
