"""Static files for production: WhiteNoise's compressed, hashed files, with the
page's ES module imports rewritten to the hashed names too.

Without ``support_js_module_import_aggregation`` only ``board/main.js`` would be
fingerprinted and the modules it imports would load by their plain names, so a
browser could mix a new ``main.js`` with cached old modules after a deploy.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Hashed, compressed static files whose ES module imports use the hashes."""

    support_js_module_import_aggregation = True
