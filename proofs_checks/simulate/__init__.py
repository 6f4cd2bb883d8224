"""Simulations that regression-test the theory against data (issue: verification suite IV)."""
