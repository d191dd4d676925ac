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
    return game.parse_state(f"{game.size}:{game.row}:{''.join(cells)} {side}")
