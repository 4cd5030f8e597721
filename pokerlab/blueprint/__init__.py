"""Hold'em blueprint training: the abstract betting tree as arrays, MCCFR kernels, LBR."""
