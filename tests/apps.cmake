# Tests of apps/ (STREAM)
