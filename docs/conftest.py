"""pytest collects docs/ for the doctests of `make test`: the gallery's generated copies of
examples/, the built site and the generated family listings (_generated/) are not test modules
(the gallery scripts run in `make docs`, and in tests/test_gallery.py)."""
collect_ignore_glob = ["gallery/*", "_build/*", "_generated/*"]
