# Tests of the built-in profiler (SKIFF_PROFILE)
