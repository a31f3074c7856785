"""Static files under content-hashed names, so nginx may tell browsers to keep them for a year.

collectstatic names each file after a hash of its content and writes the names to
staticfiles.json; `{% static %}` then links the hashed name. The ES modules of static/js import
each other by relative paths ("./cards.js"), which are rewritten to the hashed names too: a
changed module changes the name of every module that imports it, so a browser never mixes old
and new code. The module graph must stay acyclic (each rewrite pass settles one more layer).
"""

import logging

from django.contrib.staticfiles.storage import HashedFilesMixin, ManifestStaticFilesStorage

logger = logging.getLogger(__name__)


class HashedStaticFilesStorage(ManifestStaticFilesStorage):
    # Rewrite `import ... from "./x.js";`, `export ... from "./x.js";` and `import("./x.js")`.
    support_js_module_import_aggregation = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.warned_unhashed = False

    def url(self, name, force=False):
        if self.hashed_files or force:
            return super().url(name, force)
        # No manifest where this process looks (a web server without the collected files): link
        # the unhashed copies collectstatic writes beside the hashed ones, which nginx serves as
        # well, rather than fail every page. Said once, since those miss the year-long cache.
        if not self.warned_unhashed:
            self.warned_unhashed = True
            logger.warning(
                "no %s in %s: static files are linked by their unhashed names",
                self.manifest_name,
                self.location,
            )
        return super(HashedFilesMixin, self).url(name)
