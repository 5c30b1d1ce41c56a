# Tests of skiff-pipe (output parsed and checked)
