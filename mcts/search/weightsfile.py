"""The weights files that tree models carry (``patterns.npz``,
``network.npz``): numpy ``.npz`` archives written the same way every time.

:func:`npz_bytes` compresses named arrays with fixed timestamps, in the order
given, so the same weights always give the same bytes (and the same sha256
in the manifest); :func:`read_npz` reads them back without pickles.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping

import numpy as np


def npz_bytes(arrays: Mapping[str, object]) -> bytes:
    """Return the ``.npz`` file of ``arrays`` (name -> array or scalar)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w") as out:
                np.lib.format.write_array(out, np.asanyarray(array))
    return buffer.getvalue()


def read_npz(data: bytes) -> dict[str, np.ndarray]:
    """Return the arrays of an ``.npz`` file's bytes; ValueError saying what
    is wrong when they are not one."""
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            return {name: npz[name] for name in npz.files}
    except Exception as error:  # noqa: BLE001 - numpy/zipfile raise many kinds
        raise ValueError(f"not a weights file ({error})") from None
