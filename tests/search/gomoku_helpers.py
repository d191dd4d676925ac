"""Helpers the Gomoku search tests share."""


def position(game, black, white):
    """Return the state with the named stones, black to move when the
    counts are equal, else white."""
    cells = ["."] * (game.size * game.size)
    empty = game.initial_state()
    for names, char in ((black, "x"), (white, "o")):
        for name in names.split():
            cells[game.parse_move(empty, name)] = char
    side = "b" if len(black.split()) == len(white.split()) else "w"
    rule = "" if game.rule == "freestyle" else f"{game.rule}:"
    return game.parse_state(f"{game.size}:{game.row}:{rule}{''.join(cells)} {side}")


#: Positions with a known VCF for the side to move, and its length in plies.
VCF_LINES = (
    (
        "15:5:......................................................"
        "..........o.xx.oo........x..o..o.........xxo.o............"
        ".............xo.o.x..........o.x.x........oxxox.x........."
        "....................................................... w",
        5,
    ),
    (
        "15:5:......................................................"
        "..........oxoo.............ox.x.........x.x.x..........xo."
        "xo.o........o.o.o.x.........x..............x..o..........."
        "....................................................... b",
        7,
    ),
)
