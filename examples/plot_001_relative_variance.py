"""
001 Fig. 1: Var/E^2 of RFF and GCWS, from the figure registry
=============================================================

Every figure of the project is a recipe in the figure registry (``varlab.plotting``): build it at
a budget and you get the committed figure's matplotlib Figure (``varlab figures --only ID`` writes
it to ``figures/``). The project's ``001_fig1`` is analytic (no simulation), so any budget gives
the same figure: Var/E^2 of RFF against rho for three gamma (left) and against the kernel value E beside
GCWS's (1 - E)/E (right), where the RFF curves coincide because Var/E^2 depends on E only.
"""
from varlab import claims, plotting

recipe = plotting.get_figure("001_fig1")
print(recipe.source, "|", recipe.caption)
fig = recipe.build(claims.budget("test"))
