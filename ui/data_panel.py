"""The data panel: which data, its options, label noise, the train/test split, uploads.

:func:`data_panel` draws the widgets (through :func:`ui.state.control`, so
every choice lives in the URL) and returns a :class:`DataRequest`; the
page builds the data with :func:`ui.runs.get_dataset`. Widget ranges are
the app's; names, defaults and help texts come from the core's registry.
"""

from __future__ import annotations

import hashlib

import streamlit as st

from perceptron_core.datasets import CSVLimits, DataError
from perceptron_core.datasets.csvfile import LABELS_NOTE, csv_columns
from perceptron_lab.app_logic.data_options import offered_datasets, option_control
from perceptron_lab.app_logic.datasource import NOISE_KINDS, DataRequest, read_csv
from perceptron_lab.app_logic.memory import SERVER
from perceptron_lab.app_logic.visitor_text import MESSAGE_LIMIT, as_text
from perceptron_lab.ui.safety import attempt
from perceptron_lab.ui.state import control, hidden

#: Slider labels per option name, overridden per (set, option). Khardon & Wachman name their
#: data's parameters (f, M, N), N the label-noise rate (2007, section 3.1), so no count is
#: called "N ..." here; their letters go with their controls.
LABELS = {
    "n_samples": "Examples",
    "n_features": "Features",
    ("kw", "n_features"): "Features (f)",
    ("kw", "margin"): "Margin (M)",
}
#: The label of the panel's noise-rate slider, per set (the default: "Noise rate").
NOISE_RATE_LABELS = {"kw": "Noise rate (N)"}
#: Upload cap: the same as server.maxUploadSize in .streamlit/config.toml.
MAX_UPLOAD_BYTES = 2_000_000


def option_label(set_name: str, option: str) -> str:
    """The label of a generator option's control.

    Examples
    --------
    >>> option_label("kw", "n_features"), option_label("gaussians", "n_samples")
    ('Features (f)', 'Examples')
    >>> option_label("circles", "factor")
    'Factor'
    """
    return (
        LABELS.get((set_name, option))
        or LABELS.get(option)
        or (option.replace("_", " ").capitalize())
    )


def _option_widget(spec, option, prefix):
    offer = option_control(spec, option)  # the share link reads the same table
    if offer is None:
        return None
    key = f"{prefix}{spec.name}_{option.name}"
    common = {"prefix": prefix, "group": "data", "help": option.help}
    if offer.kind == "class":
        return control(
            st.selectbox,
            "Class called +1 (against the rest)",
            key,
            offer.choices[0],
            options=list(offer.choices),
            **common,
        )
    if offer.kind == "choice":
        return control(
            st.selectbox,
            option.name.replace("_", " "),
            key,
            option.default,
            options=list(offer.choices),
            **common,
        )
    return control(
        st.slider,
        option_label(spec.name, option.name),
        key,
        type(offer.low)(option.default),
        min_value=offer.low,
        max_value=offer.high,
        step=offer.step,
        **common,
    )


def _shown(name: str) -> str:
    """A column or class name from the file, as an option of a select box (plain text)."""
    return as_text(name, markdown=False)


def _read_upload(data: bytes, label: str | int | None):
    """The upload as the core reads it, once per file and label column (not at every rerun:
    a file near the size limit takes a noticeable time to read), kept in the server's memory
    budget."""
    return read_csv(data, label, MAX_UPLOAD_BYTES)


def _read_columns(data: bytes):
    """The upload's columns (names, or positions when it has no header row), once per file."""
    limits = CSVLimits(max_bytes=MAX_UPLOAD_BYTES)
    key = hashlib.blake2b(data).hexdigest()
    return SERVER.cached(
        "upload columns",
        key,
        lambda: csv_columns(data, limits=limits),
        keep_errors=(DataError,),
    )


#: The choices made for one file (they mean nothing for another), by what they depend on.
_FILE_CHOICES = ("csv_label", "csv_positive", "csv_features")
_LABEL_CHOICES = ("csv_positive", "csv_features")


def _forget_stale_choices(prefix: str, data: bytes, label=None) -> None:
    """Drop the choices made for another file (or, given ``label``, for another label
    column): the widgets then start from this file's own defaults, not from names that
    another file happened to share."""
    ss = st.session_state
    if label is None:
        key, basis, stale = f"{prefix}csv_file", hashlib.blake2b(data).hexdigest(), _FILE_CHOICES
    else:
        key, basis, stale = f"{prefix}csv_file_label", label, _LABEL_CHOICES
    if ss.get(key) != basis:
        for choice in stale:
            ss.pop(f"{prefix}{choice}", None)
        ss[key] = basis


def _label_control(prefix: str, columns) -> str | int:
    """The label column: by name, or by position for a file without a header row
    (the reader takes names only from a header); the last column by default."""
    if columns.has_header:
        options, shown = list(columns.names), _shown
    else:
        width = len(columns.names)
        options = list(range(width))

        def shown(j: int) -> str:
            return f"column {j + 1} of {width}" + (" (the last)" if j == width - 1 else "")

    return control(
        st.selectbox,
        "Label column" if columns.has_header else "Label column (by position: no header row)",
        f"{prefix}csv_label",
        options[-1],
        options=options,
        format_func=shown,
        prefix=prefix,
        group="data",
        url=False,
    )


def _csv_controls(prefix: str):
    """Upload, label column, +1 class and feature columns; returns the request fields.

    The choices belong to the file: a new file (or a new label column) starts
    from its own defaults.
    """
    upload = st.file_uploader(
        "CSV file (one row per example)",
        type=["csv", "txt", "tsv", "data"],  # .data: the UCI repository's tables
        key=f"{prefix}upload",
        help="Numeric feature columns and a label column. At most 2 MB.",
    )
    if upload is None:
        st.info("Upload a CSV file. Until then the previous data stay on screen.")
        return None
    data = upload.getvalue()
    _forget_stale_choices(prefix, data)
    columns = attempt("Reading the file", _read_columns, data)
    if columns is None:
        return None
    label = _label_control(prefix, columns)
    _forget_stale_choices(prefix, data, label)
    table = attempt("Reading the file", _read_upload, data, label)
    if table is None:
        return None
    for note in table.warnings:
        if not note.startswith(LABELS_NOTE):  # the page names the classes as the figure does
            st.caption(as_text(note, MESSAGE_LIMIT))
    positive = None
    if len(table.class_names) > 2:
        positive = control(
            st.selectbox,
            "Class called +1 (against the rest)",
            f"{prefix}csv_positive",
            table.class_names[0],
            options=list(table.class_names),
            format_func=_shown,
            prefix=prefix,
            group="data",
            url=False,
        )
    features = control(
        st.multiselect,
        "Train on these columns",
        f"{prefix}csv_features",
        list(table.feature_names),
        options=list(table.feature_names),
        format_func=_shown,
        prefix=prefix,
        group="data",
        url=False,
        help="Two columns: the plane view. More: the projection view.",
    )
    if not features:
        st.warning("Choose at least one column to train on.")
        return None
    return {
        "csv_bytes": data,
        "csv_label": label,
        "csv_positive": positive,
        "csv_features": tuple(features),
    }


def data_panel(prefix: str, default: str = "separable") -> DataRequest | None:
    """Draw the data controls; returns the request, or None until an upload is usable."""
    specs = offered_datasets()
    names = list(specs) + ["csv"]
    titles = {name: specs[name].title for name in specs} | {"csv": "Upload a CSV file"}
    name = control(
        st.selectbox,
        "Data set",
        f"{prefix}data",
        default,
        options=names,
        format_func=titles.get,
        prefix=prefix,
        group="data",
        help="2-D sets show the plane itself; larger sets are shown projected.",
    )
    seed = control(
        st.number_input,
        "Seed",
        f"{prefix}seed",
        0,
        min_value=0,
        max_value=1_000_000,
        step=1,
        prefix=prefix,
        group="data",
        help="Same seed, same data, same visiting order, same picture.",
    )
    if not hidden("data"):
        st.button(
            "New random data (next seed)",
            key=f"{prefix}regenerate",
            on_click=_next_seed,
            args=(f"{prefix}seed",),
            width="stretch",
        )
    options = {}
    csv_fields = {}
    if name == "csv":
        csv_fields = _csv_controls(prefix)
        if csv_fields is None:
            return None
    else:
        spec = specs[name]
        if not hidden("data"):
            st.caption(spec.description)
        for option in spec.options:
            value = _option_widget(spec, option, prefix)
            if value is not None:
                options[option.name] = value
    noise_kind = control(
        st.selectbox,
        "Label noise",
        f"{prefix}noise",
        "none",
        options=list(NOISE_KINDS),
        prefix=prefix,
        group="data",
        help=" ".join(f"**{k}**: {v}" for k, v in NOISE_KINDS.items()),
    )
    noise_rate = 0.0
    if noise_kind != "none":
        noise_rate = control(
            st.slider,
            NOISE_RATE_LABELS.get(name, "Noise rate"),
            f"{prefix}noise_rate",
            0.1,
            min_value=0.0,
            max_value=0.5,
            step=0.01,
            prefix=prefix,
            group="data",
            help="Flipped points are marked ×.",
        )
    test_fraction = control(
        st.slider,
        "Test share",
        f"{prefix}test",
        0.0,
        min_value=0.0,
        max_value=0.5,
        step=0.05,
        prefix=prefix,
        group="data",
        help="Held out (and kept clean); shown as hollow markers.",
    )
    return DataRequest(
        name=name,
        options=tuple(sorted(options.items())),
        noise_kind=noise_kind,
        noise_rate=float(noise_rate),
        test_fraction=float(test_fraction),
        seed=int(seed),
        **csv_fields,
    )


def _next_seed(key: str) -> None:
    st.session_state[key] = int(st.session_state.get(key, 0)) + 1
