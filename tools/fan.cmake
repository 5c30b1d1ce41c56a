# skiff-fan: see docs/skiff-fan.md (target, install rule)
