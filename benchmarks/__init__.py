"""Side-by-side benchmarks of pokerlab against its peers (OpenSpiel, pokerkit, eval7)."""
