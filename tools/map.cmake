# skiff-map: see docs/skiff-map.md (target, install rule)
