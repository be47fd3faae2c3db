import sys

from feltctl.cli import main

sys.exit(main())
