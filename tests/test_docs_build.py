"""The documentation site builds offline with warnings as errors (as `make docs` does); slow (about
a minute: Sphinx runs the gallery's scripts), so it runs in `make test-slow`, which installs the
docs extra first. The build reads only the repository: no intersphinx, no remote images."""
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.mark.slow
def test_docs_build_offline_without_warnings(tmp_path):
    pytest.importorskip("sphinx", reason="the docs extra: pip install -e '.[docs]' (make test-slow installs it)")
    configuration = (DOCS / "conf.py").read_text()
    assert "intersphinx" not in configuration, "the docs must build offline"
    build = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                            str(DOCS), str(tmp_path / "html")], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-4000:]
    assert (tmp_path / "html" / "index.html").exists()
    assert (tmp_path / "html" / "gallery" / "index.html").exists()
