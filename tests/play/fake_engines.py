"""Source shared by the tiny fake engines the tests write out and run."""

#: A piskvork ``BOARD`` reader for a fake engine's script: ``read_board(lines)``
#: takes the ``x,y,who`` lines up to ``DONE`` and returns the taken cells.
READ_BOARD = """
def read_board(lines):
    taken = set()
    for row in lines:
        if row.strip() == "DONE":
            break
        x, y, _ = row.strip().split(",")
        taken.add((int(x), int(y)))
    return taken
"""
