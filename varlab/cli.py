"""The ``varlab`` command: list, figures, check, simulate, reproduce, bench.

    varlab list [papers|claims|figures|models|maps|samplers|measures|formulas|parameters|datasets]
    varlab figures [--only ID ...] [--budget quick|full] [--out DIR]
    varlab check [--paper 000 ...] [--budget quick|full] [--out DIR] [--compare [STORED]]
    varlab simulate MODEL --k K [K ...] --PARAMETER V [V ...] ... [--option NAME=VALUE ...] [--json]
                    [--device cpu|cuda]
    varlab reproduce [--budget quick|full] [--compare]
    varlab verify DIR
    varlab bench [NAME ...]

simulate, check and reproduce take --n-jobs N, --scheduler ADDRESS (a dask.distributed cluster)
and --checkpoint DIR (resume a killed run; the default for --budget full is the project's
.varlab-checkpoints).

Errors print one line (``varlab: error: ...``) and exit with status 2; never a traceback.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from .claims import BUDGETS, budget as make_budget
from .cli_arguments import (CommandError, Parser, _grid_arguments, _model_options, _options, did_you_mean,
                            paper_key)
from .mc.devices import DEVICES

LISTINGS = ("papers", "claims", "figures", "models", "maps", "samplers", "measures", "formulas",
            "parameters", "datasets")


def _log(message: str) -> None:
    from tqdm.auto import tqdm

    tqdm.write(message, file=sys.stderr)


def _repository_root() -> Path:
    """The source checkout varlab runs from (the folder with its pyproject.toml), so that outputs
    land in the project whatever the current directory; the current directory for an installed
    wheel."""
    checkout = Path(__file__).resolve().parents[1]
    return checkout if (checkout / "pyproject.toml").is_file() else Path.cwd()


# --- list ---------------------------------------------------------------------------------------

def listing(what: str) -> list[tuple]:
    """Rows (name, description...) of one registry."""
    from . import claims, plotting, spectral, theory
    from .features import available_feature_maps, samplers
    from .mc import available_models, model_class

    if what == "papers":
        return [(paper, claims.paper_title(paper)) for paper in claims.papers()]
    if what == "claims":
        return [(c.id, c.source + (" (varlab's own)" if c.derived_by_varlab else "")) for c in claims.claims()]
    if what == "figures":
        return [(f.id, f.source + ("" if f.simulates else " (analytic)")) for f in plotting.figures()]
    if what == "models":
        rows = []
        for name in available_models():
            cls = model_class(name)
            options = ", ".join(_model_options(cls)) or "-"
            kind = "prefix" if cls.prefix else "fresh per k"
            rows.append((name, f"parameters {', '.join(cls.parameters)}; options {options}; {kind}; "
                               f"{cls.description}"))
        return rows
    if what == "maps":
        return [(name, f"{cls.__name__}: {(cls.__doc__ or '').strip().splitlines()[0]}")
                for name, cls in available_feature_maps().items()]
    if what == "samplers":
        return [(name, (samplers.get_sampler(name).__doc__ or "").strip().splitlines()[0])
                for name in samplers.available_samplers()]
    if what == "measures":
        return [(name, _first_sentence(cls.__doc__)) for name, cls in spectral.measures().items()]
    if what == "formulas":
        return [(f.name, f.source) for f in theory.formulas().values()]
    if what == "parameters":
        return [(p.name, f"{p.domain}; {p.description}") for p in theory.declared_parameters().values()]
    if what == "datasets":
        from . import datasets
        return [(name, entry.summary + ("" if entry.installed else f" (needs {entry.extra})"))
                for name, entry in datasets.catalog().items()]
    raise CommandError(f"list: what must be one of {list(LISTINGS)}, got {what!r}")


def _first_sentence(doc: str | None) -> str:
    """The first sentence of a docstring, on one line."""
    import re

    text = " ".join((doc or "").split())
    end = re.search(r"(?<!Eq)(?<!Eqs)(?<!Fig)(?<!e\.g)(?<!i\.e)(?<!Thm)\.\s", text)
    return text if end is None else text[:end.start() + 1]


def run_list(what) -> None:
    for section in ([what] if what else LISTINGS):
        rows = listing(section)
        print(f"{section} ({len(rows)}):")
        width = max((len(str(row[0])) for row in rows), default=0)
        for name, text in rows:
            print(f"  {str(name):<{width}}  {text}")


# --- figures and checks -----------------------------------------------------------------------

def run_figures(only=None, budget_name="quick", out=None) -> list[Path]:
    """Build the figures (all or ``only``) and write PNG + PDF (and ``<id>.md`` for a table) plus
    figures/README.md; with ``only``, the manifest's entries of those files alone are updated."""
    from . import manifest, plotting

    budget = make_budget(budget_name)
    out = Path(out) if out else _repository_root() / "figures"
    known = {figure.id: figure for figure in plotting.figures()}
    ids = list(known) if not only else list(only)
    unknown = [figure_id for figure_id in ids if figure_id not in known]
    if unknown:
        raise CommandError(f"figures: unknown figure id(s) {unknown}{did_you_mean(unknown[0], known)}; "
                           f"known: {list(known)}")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CommandError(f"figures: cannot create the output directory {out}: {error.strerror}") from None
    written = plotting.write_figures([known[figure_id] for figure_id in ids], budget, out, log=_log)
    _write_readme(out)
    run = {"command": "varlab figures" + (" --only " + " ".join(ids) if only else ""), "figures": ids,
           "budget": budget.name, "n_repetitions": budget.n_repetitions, "random_state": budget.random_state}
    names = [path.name for path in written] + ["index.json", "README.md"]
    manifest.write(out, run=run, files=names if only else None)
    return written


def _write_readme(out: Path) -> None:
    """figures/README.md, generated from the figure registry and figures/index.json (what each
    figure was last built at, and how long it took: ``plotting.write_figures``): each figure's
    source, caption and own budget (what one of its points averages over)."""
    from . import plotting

    index = plotting.read_index(out)
    lines = ["# Figures", "", "Generated by `varlab figures` (or `make reproduce`) from the figure registry "
             "(`varlab.plotting`); never edited by hand. *Per point* is each figure's own budget: what one "
             "of its points (or table cells) averages over.", "",
             "| figure | regenerates | budget | per point | random_state | seconds |", "|---|---|---|---|---|---|"]
    captions = []
    for recipe in plotting.figures():
        entry = index.get(recipe.id)
        if entry is None:
            continue
        budget = make_budget(entry["budget"]) if recipe.simulates else None
        files = ", ".join(f"[{suffix}]({recipe.id}.{suffix})" for suffix in ("png", "pdf")
                          + (("md",) if (out / f"{recipe.id}.md").exists() else ()))
        lines.append(f"| `{recipe.id}` ({files}) | {recipe.source} | {entry['budget'] if budget else 'analytic'} | "
                     f"{recipe.per_point(budget)} | {entry['random_state'] or ''} | {entry.get('seconds', '')} |")
        if recipe.caption:
            captions.append(f"- `{recipe.id}`: {recipe.caption}")
    lines += ["", "## Captions", ""] + captions
    (out / "README.md").write_text("\n".join(lines) + "\n")


def run_checks(papers=None, budget_name="quick", out=None, checkpoint=None, until_decided=None):
    """Run the claims of ``papers`` (``varlab.claims.check``) and write report.md / points.md /
    report.json per paper (and a manifest of the reports directory). With ``checkpoint``,
    finished claims are kept in ``<checkpoint>/store`` and not rerun; ``until_decided``: a
    ``varlab.claims.UntilDecided`` (each inconclusive claim gets one deciding run)."""
    from . import claims, manifest

    budget = make_budget(budget_name)
    if checkpoint is not None:
        budget = budget.stored_in(Path(checkpoint) / "store")
    known = claims.papers()
    unknown = [paper for paper in (papers or []) if paper not in known]
    if unknown:
        raise CommandError(f"check: unknown paper(s) {unknown}; known: {known}")
    base = Path(out) if out else _repository_root() / "paper_checks" / "reports"
    partial = bool(papers) and set(papers) != set(known)
    try:
        verdicts = claims.check(papers, budget, base, log=_log, until_decided=until_decided)
    except OSError as error:
        raise CommandError(f"check: cannot write the reports to {base}: {error.strerror}") from None
    run = {"command": "varlab check" + (" --paper " + " ".join(verdicts) if partial else "")
           + (" --until-decided" if until_decided is not None else ""),
           "papers": list(verdicts), "budget": budget.name, "n_repetitions": budget.n_repetitions,
           "random_state": budget.random_state}
    manifest.write(base, run=run, files=_report_files(base, verdicts) if partial else None)
    return verdicts


def add_until_decided_arguments(parser) -> None:
    """``--until-decided``, ``--max-factor`` and ``--max-seconds`` (``varlab check`` and the
    full-budget scripts under simulations/); read them with :func:`until_decided_from`."""
    parser.add_argument("--until-decided", nargs="*", metavar="ID",
                        help="give each inconclusive claim (or only the claims ID ...) one deciding "
                             "run with fresh seeds at the budget its pilot advises, within "
                             "--max-factor and --max-seconds; the report records both runs")
    parser.add_argument("--max-factor", type=float, default=10.0, metavar="F",
                        help="with --until-decided: the most times the budget a deciding run may "
                             "have (default: %(default)s)")
    parser.add_argument("--max-seconds", type=float, metavar="S",
                        help="with --until-decided: the most seconds a deciding run may be expected "
                             "to take, from its pilot's (default: no cap)")


def until_decided_from(args):
    """The ``varlab.claims.UntilDecided`` of the options of :func:`add_until_decided_arguments`
    (None without --until-decided)."""
    from .claims import UntilDecided

    if args.until_decided is None:
        if args.max_factor != 10.0 or args.max_seconds is not None:
            raise CommandError("--max-factor and --max-seconds need --until-decided")
        return None
    try:
        return UntilDecided(max_factor=args.max_factor, max_seconds=args.max_seconds,
                            only=args.until_decided or None)
    except ValueError as error:
        raise CommandError(str(error)) from None


def _existing(directory: str) -> str:
    """``directory`` as given, or, where it does not exist here, the project's folder of that
    name (so that ``varlab verify figures`` works from any directory)."""
    if not Path(directory).exists() and (_repository_root() / directory).exists():
        return str(_repository_root() / directory)
    return directory


def _report_files(base: Path, papers) -> list[str]:
    """The manifest entries of the ``papers``' reports under ``base``: the files now in their
    folders and those the manifest listed there (a file that is gone leaves the manifest)."""
    from . import manifest

    prefixes = tuple(f"{paper}/" for paper in papers)
    listed = manifest.read(base)["files"] if (base / manifest.MANIFEST).exists() else {}
    present = [path.relative_to(base).as_posix() for paper in papers
               for path in (base / paper).rglob("*") if path.is_file()]
    return sorted(set(present) | {name for name in listed if name.startswith(prefixes)})


@contextlib.contextmanager
def _output(directory):
    """``directory`` as a Path, or a temporary directory removed afterwards."""
    if directory is not None:
        yield Path(directory)
        return
    with tempfile.TemporaryDirectory(prefix="varlab-") as temporary:
        yield Path(temporary)


def _stored_reports(budget_name: str) -> Path:
    """The project's committed reports of a budget: tests/reports at 'test', else
    paper_checks/reports (a source checkout's)."""
    root = _repository_root()
    return root / "tests" / "reports" if budget_name == "test" else root / "paper_checks" / "reports"


def run_reproduce(budget_name: str, checkpoint=None, compare: bool = False) -> int:
    """All figures and all checks into the project (or, with ``compare``, into a temporary
    directory compared with the project's committed figures and reports); the exit status."""
    if not compare:
        run_figures(None, budget_name)
        _summary(run_checks(None, budget_name, checkpoint=checkpoint))
        return 0
    stored = _require_reports(_stored_reports(budget_name), budget_name)
    with _output(None) as out:
        run_figures(None, budget_name, out=out / "figures")
        _summary(run_checks(None, budget_name, out=out / "reports", checkpoint=checkpoint))
        _compare_figures(out / "figures", _repository_root() / "figures")
        return run_compare(out / "reports", stored)


def _require_reports(stored, budget_name: str) -> Path:
    """``stored`` as a Path, after checking (before any work is done) that it holds reports at
    ``budget_name``: a regeneration at another budget would differ everywhere."""
    stored = Path(stored)
    paths = sorted(stored.glob("*/report.json"))
    if not paths:
        raise CommandError(f"compare: no reports (*/report.json) under {stored}")
    written_at = json.loads(paths[0].read_text()).get("budget", {}).get("name")
    if written_at != budget_name:
        raise CommandError(f"compare: the reports under {stored} are at budget {written_at!r}; "
                           f"compare a regeneration at that budget (--budget {written_at})")
    return stored


def run_compare(new, stored, papers=None) -> int:
    """Print what of the reports under ``new`` moved beyond the tolerances of
    ``varlab.claims.compare`` from those under ``stored``; 1 if anything did, else 0."""
    from .claims import claims as registered
    from .claims.compare import compare_reports

    moved = compare_reports(new, Path(stored), papers)
    for claim_id, lines in moved.items():
        print(f"{claim_id}: moved")
        for line in lines[:5]:
            print(f"    {line}")
        if len(lines) > 5:
            print(f"    ... and {len(lines) - 5} more")
    compared = sum(1 for c in registered() if papers is None or c.paper in papers)
    print(f"compared {compared} claims with {stored}: " + (
        "every outcome, word and number within tolerance" if not moved else
        f"{len(moved)} moved beyond tolerance"))
    return 1 if moved else 0


def _compare_figures(new: Path, stored: Path) -> None:
    """Say which regenerated figures differ from the committed ones in their bytes (on another
    CPU, expected: a last-bit difference moves a pixel; the claims' numbers are compared)."""
    import filecmp

    names = sorted(path.name for path in new.glob("*.png"))
    differ = [name for name in names if not (stored / name).exists()
              or not filecmp.cmp(new / name, stored / name, shallow=False)]
    print(f"figures: {len(names) - len(differ)} of {len(names)} PNG files byte for byte the committed "
          "ones" + (f"; differing (pixels): {', '.join(differ)}" if differ else ""))


def _summary(verdicts) -> None:
    for paper, items in verdicts.items():
        counts = {}
        for verdict in items:
            counts[verdict.outcome] = counts.get(verdict.outcome, 0) + 1
        _log(f"paper {paper}: " + ", ".join(f"{n} {name}" for name, n in sorted(counts.items())))


# --- simulate -----------------------------------------------------------------------------------

def _table(result) -> str:
    """A readable table: one row per (point, k)."""
    names = list(result.grid)
    theory = sorted(result.theory)
    header = names + ["k", "mean", "se(mean)", "bias", "variance", "se(variance)"]
    header += ["theory variance"] if "variance" in theory else []
    header += ["MSE", "se(MSE)"] + (["theory MSE"] if "mse" in theory else [])
    rows = []
    for record in result.records():
        row = [f"{record[name]:g}" for name in names] + [str(record["k"])]
        row += [f"{record[key]:.6g}" for key in ("mean", "se_mean", "bias", "variance", "se_variance")]
        row += [f"{record['theory_variance']:.6g}"] if "variance" in theory else []
        row += [f"{record['mse']:.6g}", f"{record['se_mse']:.3g}"]
        row += [f"{record['theory_mse']:.6g}"] if "mse" in theory else []
        rows.append(row)
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(header, widths))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in rows]
    target = ", ".join(f"{t:.6g}" for t in np.unique(result.target))
    options = f" options {result.options}" if result.options else ""
    return (f"model {result.model}{options}: {result.n_repetitions:,} repetitions, target {target}\n"
            + "\n".join(lines))


def run_simulate(args, extra, own_options=()) -> None:
    from . import mc

    grid = _grid_arguments(args.model, extra, own_options)
    result = mc.simulate(args.model, k=args.k, n_repetitions=args.repetitions,
                         random_state=args.seed, device=args.device, **grid,
                         **_options(args.model, args.option))
    if args.json:                               # JSON Lines: one object per (point, k)
        for record in result.records():
            print(json.dumps(record))
    else:
        print(_table(result))


def run_bench(names) -> int:
    """Run benchmarks/run.py of the source checkout (the project root)."""
    import subprocess

    script = _repository_root() / "benchmarks" / "run.py"
    if not script.exists():
        raise CommandError(f"bench: {script} not found; run it from a varlab source checkout")
    known = sorted(path.stem for path in script.parent.glob("bench_*.py"))
    unmatched = [name for name in names if not any(name in stem for stem in known)]
    if unmatched:
        raise CommandError(f"bench: no benchmark file name contains {unmatched[0]!r}; known: {known}")
    return subprocess.run([sys.executable, str(script), *names], check=False).returncode


# --- entry point --------------------------------------------------------------------------------

def _models_epilog() -> str:
    from .mc import available_models, model_class

    lines = ["models (--PARAMETER values; --option NAME=VALUE):"]
    for name in available_models():
        cls = model_class(name)
        options = " ".join(_model_options(cls))
        lines.append(f"  {name}: " + " ".join(f"--{p}" for p in cls.parameters)
                     + (f"  [options: {options}]" if options else ""))
    return "\n".join(lines)


def _parser():
    parser = Parser(prog="varlab", description=__doc__,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", parser_class=Parser)
    budgets = sorted(BUDGETS)

    listing_parser = commands.add_parser("list", help="list papers, claims, figures, models, ...")
    listing_parser.add_argument("what", nargs="?", choices=LISTINGS)

    figures = commands.add_parser("figures", help="regenerate the paper figures")
    figures.add_argument("--only", nargs="+", metavar="ID",
                         help="only these figures (`varlab list figures`); the manifest's other entries are kept")
    figures.add_argument("--budget", default="quick", choices=budgets, help="default: %(default)s")
    figures.add_argument("--out", metavar="DIR", help="default: figures/ of the project")
    _add_parallel_arguments(figures)

    check = commands.add_parser("check", help="check the papers' claims into reports")
    check.add_argument("--paper", nargs="+", type=paper_key,
                       help="only these papers, e.g. 000 or 2 (default: all); the manifest's other "
                            "entries are kept")
    check.add_argument("--budget", default="quick", choices=budgets, help="default: %(default)s")
    check.add_argument("--out", metavar="DIR", help="default: paper_checks/reports/ of the project "
                                                    "(with --compare: a temporary directory)")
    check.add_argument("--compare", nargs="?", const="", metavar="STORED",
                       help="compare the regenerated reports with those under STORED (default: the "
                            "project's committed reports of the budget) at the tolerances of "
                            "varlab.claims.compare, print what moved, exit 1 if anything did")
    add_until_decided_arguments(check)
    _add_parallel_arguments(check)

    simulate = commands.add_parser("simulate", help="simulate one estimator over a parameter grid",
                                   epilog=_models_epilog(),
                                   formatter_class=argparse.RawDescriptionHelpFormatter)
    simulate.add_argument("model", help="a registered model (listed below)")
    simulate.add_argument("--k", type=int, nargs="+", required=True, metavar="K",
                          help="the numbers of samples, increasing (e.g. 1 10 100); required")
    simulate.add_argument("--repetitions", type=int, default=10_000, metavar="N",
                          help="independent repetitions per point and k (default: %(default)s)")
    simulate.add_argument("--seed", type=int, default=0,
                          help="root of the seed tree: the same seed gives the same numbers (default: %(default)s)")
    _add_parallel_arguments(simulate)
    simulate.add_argument("--option", action="append", metavar="NAME=VALUE",
                          help="a model option (listed below); repeat for several")
    simulate.add_argument("--json", action="store_true",
                          help="JSON Lines: one JSON object per (point, k) on its own line")
    simulate.add_argument("--device", choices=DEVICES, default=None,
                          help="where the model's array code runs: cpu (default) or cuda (CuPy, "
                               "the 'gpu' extra; models with gpu = True)")

    bench = commands.add_parser("bench", help="run the benchmarks into benchmarks/RESULTS.md "
                                              "(from a source checkout; needs the 'bench' extra)")
    bench.add_argument("names", nargs="*", help="only the benchmarks whose file name contains these")

    reproduce = commands.add_parser("reproduce", help="all figures and all checks")
    reproduce.add_argument("--budget", default="quick", choices=budgets, help="default: %(default)s")
    reproduce.add_argument("--compare", action="store_true",
                           help="regenerate into a temporary directory and compare with the committed "
                                "figures (bytes) and reports (outcomes and numbers at the tolerances of "
                                "varlab.claims.compare); exit 1 if a report moved")
    _add_parallel_arguments(reproduce)

    verify = commands.add_parser("verify", help="re-check a directory's outputs against its manifest")
    verify.add_argument("directory")
    return parser


def _add_parallel_arguments(parser) -> None:
    parser.add_argument("--n-jobs", type=int, default=None, help="parallel workers (joblib)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the simulations on this dask.distributed scheduler")
    parser.add_argument("--checkpoint", metavar="DIR",
                        help="store finished work here and resume from it")


def _engine_settings(args):
    """mc.configure(...) for the command's --n-jobs/--scheduler/--checkpoint."""
    from . import mc

    checkpoint = args.checkpoint
    if checkpoint is None and getattr(args, "budget", None) == "full":
        checkpoint = _repository_root() / ".varlab-checkpoints"
    args.checkpoint = checkpoint
    return mc.configure(n_jobs=args.n_jobs, backend="dask" if args.scheduler else None,
                        scheduler=args.scheduler,
                        checkpoint_root=None if checkpoint is None else Path(checkpoint) / "simulations")


def _subparser(parser, command: str):
    """The parser of one sub-command (its errors name that command's options)."""
    action = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return action.choices[command]


def main(argv=None) -> int:
    """Entry point of the ``varlab`` command; returns the exit status."""
    parser = _parser()
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        parser.print_help()
        print("\nStart with `varlab list`, or `varlab COMMAND --help` for one command.")
        return 0
    if extra and args.command != "simulate":
        _subparser(parser, args.command).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if args.command == "list":
            run_list(args.what)
        elif args.command == "figures":
            with _engine_settings(args):
                run_figures(args.only, args.budget, args.out)
        elif args.command == "check":
            until_decided = until_decided_from(args)
            if args.compare is None:
                with _engine_settings(args):
                    _summary(run_checks(args.paper, args.budget, args.out, args.checkpoint,
                                        until_decided))
            else:
                stored = _require_reports(args.compare or _stored_reports(args.budget), args.budget)
                with _engine_settings(args), _output(args.out) as out:
                    _summary(run_checks(args.paper, args.budget, out, args.checkpoint, until_decided))
                    return run_compare(out, stored, args.paper)
        elif args.command == "simulate":
            with _engine_settings(args):
                run_simulate(args, extra, _subparser(parser, "simulate")._option_string_actions)
        elif args.command == "verify":
            from . import manifest
            args.directory = _existing(args.directory)
            problems = manifest.verify(args.directory)
            for problem in problems:
                print(problem)
            print(f"{args.directory}: " + ("all files match the manifest" if not problems else
                                          f"{len(problems)} difference(s)"))
            return 1 if problems else 0
        elif args.command == "bench":
            return run_bench(args.names)
        elif args.command == "reproduce":
            start = time.perf_counter()
            with _engine_settings(args):
                status = run_reproduce(args.budget, args.checkpoint, args.compare)
            _log(f"reproduce: done in {time.perf_counter() - start:.0f} s")
            return status
    except (CommandError, ValueError, TypeError, FloatingPointError, OSError, ImportError) as error:
        print(f"varlab: error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
