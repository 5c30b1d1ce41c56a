# skiff-pipe: see docs/skiff-pipe.md (target, install rule)
