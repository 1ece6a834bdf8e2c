"""pytest collects docs/ for the doctests of `make test`: the gallery's generated copies of
examples/, the built site and the generated family listings (_generated/) are not test modules
(the gallery scripts run in `make docs`, and in tests/test_gallery.py)."""
import pytest

collect_ignore_glob = ["gallery/*", "_build/*", "_generated/*"]


@pytest.fixture(autouse=True)
def _declared_parameters_restored():
    """A page's own declarations (testing.md declares ``t``) end with the page, so the tests that
    count varlab's declared parameters see the same registry in any collection order."""
    from varlab.theory import parameters

    saved = dict(parameters._PARAMETERS)
    yield
    parameters._PARAMETERS.clear()
    parameters._PARAMETERS.update(saved)
