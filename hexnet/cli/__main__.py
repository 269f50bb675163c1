"""``python -m hexnet.cli``: the ``hexnet`` command."""

import sys

from hexnet.cli import main

sys.exit(main())
