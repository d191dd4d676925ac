"""Source shared by the tiny fake engines the tests write out and run."""

import shlex
import sys

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


#: Plays the first free cell (top-left first). Asked by ``BOARD``, in mode
#: "prover" it says the side to move wins (+M9) when the stones are even
#: (black to move) and loses (-M8) when they are odd, the way Rapfi reports
#: proofs; in mode "unsure" it proves nothing. ``BEGIN`` and ``TURN`` let it
#: play a game too.
PROVER = (
    READ_BOARD
    + """
import sys
mode = sys.argv[1]
size, taken, lines = 0, set(), iter(sys.stdin)

def play():
    free = next((x, y) for y in range(size) for x in range(size)
                if (x, y) not in taken)
    taken.add(free)
    print(f"{free[0]},{free[1]}", flush=True)

for line in lines:
    words = line.strip().split()
    if not words or words[0] == "INFO":
        continue
    if words[0] == "END":
        break
    if words[0] == "START":
        size = int(words[1])
        print("OK", flush=True)
    elif words[0] == "BEGIN":
        play()
    elif words[0] == "TURN":
        x, y = words[1].split(",")
        taken.add((int(x), int(y)))
        play()
    elif words[0] == "BOARD":
        taken = read_board(lines)
        if mode == "prover":
            proof = "+M9" if len(taken) % 2 == 0 else "-M8"
        else:
            proof = "35"
        print(f"MESSAGE Depth 3 | Eval {proof} | Node 1K", flush=True)
        play()
"""
)


def prover_spec(folder, mode: str) -> str:
    """Write :data:`PROVER` into ``folder``; return its ``engine:piskvork``
    spec in ``mode`` ("prover" or "unsure")."""
    script = folder / "prover.py"
    script.write_text(PROVER)
    command = " ".join(shlex.quote(str(p)) for p in (sys.executable, script, mode))
    return f"engine:piskvork:cmd={command}"
