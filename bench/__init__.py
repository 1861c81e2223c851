"""Pao's benchmark suite (``make bench``): every figure is a ratio to a baseline measured in the
same run, interleaved round by round, so that it holds on a small, noisy machine."""
