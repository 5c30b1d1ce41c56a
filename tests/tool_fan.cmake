# Tests of skiff-fan (output parsed and checked)
