"""Static files for production: WhiteNoise's compressed, hashed files, with the
page's ES module imports rewritten to the hashed names too.

Without that rewriting only ``board/main.js`` would be fingerprinted and the
modules it imports would load by their plain names, so a browser could mix a
new ``main.js`` with cached old modules after a deploy.
"""

from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage

#: Files above this size get Brotli's quality 9, not its top quality 11 (when
#: the brotli package is installed): 11 takes about 2 s a megabyte, and the
#: API docs' bundles (1.1 and 1.6 MB) took 6 s of a first start's
#: ``collectstatic``, before the page answered, for 15% smaller files. The
#: page's own files, all far smaller, keep quality 11.
BROTLI_TOP_QUALITY_UP_TO = 512 * 1024


class _Compressor(Compressor):
    @staticmethod
    def compress_brotli(data: bytes) -> bytes:
        import brotli  # only called when WhiteNoise found it installed

        quality = 11 if len(data) <= BROTLI_TOP_QUALITY_UP_TO else 9
        return brotli.compress(data, quality=quality)


#: Django's patterns of an ES module's imports and exports (for its "*.js").
_, _MODULE_IMPORTS = (
    CompressedManifestStaticFilesStorage._js_module_import_aggregation_patterns
)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Hashed, compressed static files whose ES module imports use the hashes.

    Only the page's own modules (``board/``) are searched for imports:
    Django's ``support_js_module_import_aggregation`` searches every script,
    on each of collectstatic's passes, and the packages' bundles import
    nothing by path; searching their 3 MB took a third of a first start's
    ``collectstatic``.
    """

    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        ("board/*.js", _MODULE_IMPORTS),
    )

    def create_compressor(self, **kwargs) -> Compressor:
        return _Compressor(**kwargs)
