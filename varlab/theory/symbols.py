"""The sympy symbols shared by the theory modules (all real; names match keyword arguments)."""
import sympy

rho = sympy.Symbol("rho", real=True)
gamma = sympy.Symbol("gamma", real=True)
k = sympy.Symbol("k", real=True)
g = sympy.Symbol("g", real=True)
E = sympy.Symbol("E", real=True)
