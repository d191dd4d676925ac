"""A link as a QR code, for a phone to scan: the invitation the links dialog
shows, as lichess's challenge page does for a friend in the same room.

The page asks for the code of the link it shows (a POST: the link holds the
invitation's secret, which no URL of a request may carry) and draws the
modules itself. The code is made by the ``qrcode`` package, at the error
correction level M (15% of the code may be hidden or damaged), always in
byte mode (UTF-8): a link is bytes anyway, and the package's numeric mode
fails on a run of zeros (``ValueError: glog(0)``, for "0" * 300).
"""

from __future__ import annotations

from typing import Literal, cast

import qrcode
from qrcode.constants import ERROR_CORRECT_M
from qrcode.util import MODE_8BIT_BYTE, QRData

#: The longest text made into a code (a link of this site is far shorter).
MAX_CHARS = 512


def qr_rows(text: str) -> list[str]:
    """Return the QR code of ``text`` as rows of ``0`` (light) and ``1``
    (dark) modules, without the quiet zone around it (the page draws it)."""
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    # (The stubs type the mode constants as int, the argument as a Literal.)
    mode = cast(Literal[4], MODE_8BIT_BYTE)
    code.add_data(QRData(text.encode("utf-8"), mode=mode))
    code.make(fit=True)
    return ["".join("1" if dark else "0" for dark in row) for row in code.get_matrix()]
