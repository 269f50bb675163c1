"""Suite-wide settings."""

import os

from hypothesis import settings

# CI runs the same examples every time (a red CI must be reproducible); a developer's run keeps
# exploring new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
