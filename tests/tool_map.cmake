# Tests of skiff-map (output parsed and checked)
