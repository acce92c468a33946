"""Hostile input, third round: ``perceptron-lab export-html`` bounds what the page's sliders
bound, before any data are generated (a crafted link once grew the process to 22.5 GiB)."""

from __future__ import annotations

import re
import subprocess
import sys
import tracemalloc

import pytest

from perceptron_core.datasets import list_datasets
from perceptron_lab.app_logic.data_options import offered_datasets, option_control
from perceptron_lab.app_logic.share_link import read_link
from perceptron_lab.cli import main


def _sliders():
    """Every slider of every set the page offers."""
    for name, spec in offered_datasets().items():
        for option in spec.options:
            control = option_control(spec, option)
            if control is not None and control.kind == "slider":
                yield name, option.name, control


@pytest.mark.parametrize(("name", "option", "control"), list(_sliders()))
def test_a_link_takes_exactly_what_the_pages_slider_takes(name, option, control):
    key = f"{name}_{option}"
    for value in (control.low, control.high):
        assert dict(read_link(f"data={name}&{key}={value}").request.options)[option] == value
    above = control.high * 10 if isinstance(control.high, int) else control.high + 1.0
    with pytest.raises(ValueError, match=re.escape(f"{key} takes a number from {control.low}")):
        read_link(f"data={name}&{key}={above}")


def test_the_data_panel_draws_its_sets_and_sliders_from_the_same_table():
    from perceptron_lab.app_logic import data_options
    from perceptron_lab.ui import data_panel

    assert data_panel.option_control is data_options.option_control
    assert data_panel.offered_datasets is data_options.offered_datasets


def test_the_app_offers_every_set_its_registry_entry_offers_with_a_control_for_each_option():
    """Whether a set is offered and its sliders' ranges are on its registry entry: a set or an
    option the app would leave without a control fails here instead of silently."""
    from perceptron_lab.app_logic.data_options import HIDDEN_OPTIONS

    offered = offered_datasets()
    entries = [spec for spec in list_datasets() if spec.available]
    assert list(offered) == [
        *(spec.name for spec in entries if spec.in_app and spec.shape[1] == 2),
        *(spec.name for spec in entries if spec.in_app and spec.shape[1] != 2),
    ]
    assert {"separable", "kw", "breast_cancer"} <= set(offered)
    assert "fashion_mnist" not in offered  # too big to animate: its entry says so
    for spec in offered.values():
        for option in spec.options:
            own = option.name in HIDDEN_OPTIONS or option.name == "positive_class"
            assert own or option_control(spec, option) is not None, (spec.name, option.name)
    with pytest.raises(ValueError, match="data takes one of"):
        read_link("data=fashion_mnist")


def test_an_option_the_page_does_not_offer_is_not_read_from_a_link_either():
    # the panel has its own label noise; the generator's noise option has no control
    assert read_link("data=separable&separable_noise=0.4").request.options == ()


def test_export_html_refuses_more_points_than_the_slider_before_generating_them(capsys):
    tracemalloc.start()
    try:
        status = main(["export-html", "data=ringnorm&ringnorm_n_samples=200000", "-o", "x.html"])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert status == 1
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "ringnorm_n_samples='200000' is not accepted" in err, err
    assert "a number from 10 to 2000" in err
    assert peak < 5 * 2**20, f"{peak / 2**20:.1f} MiB allocated before the refusal"


def test_the_issues_link_is_refused_in_one_line_within_a_small_memory_limit():
    """The issue's link (99,999,999 rows of ringnorm), in a process that may not use 3 GiB."""
    limited = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (3 * 2**30, 3 * 2**30)); "
        "from perceptron_lab.cli import main; sys.exit(main(sys.argv[1:]))"
    )
    link = "data=ringnorm&ringnorm_n_samples=99999999"
    done = subprocess.run(
        [sys.executable, "-c", limited, "export-html", link],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "ringnorm_n_samples='99999999' is not accepted" in lines[0], lines
