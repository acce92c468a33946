"""The four ways a Khardon–Wachman run predicts, by name, in one order.

One run of docs/algorithms.md §1 yields four predictors (Khardon & Wachman
2007, §2.2; Freund & Schapire 1999, §3):

* ``"last"``: the final hypothesis;
* ``"longest"``: the hypothesis that survived the most visits in a row;
* ``"voted"``: every hypothesis from the first update on, each voting its sign
  with its number of correct predictions;
* ``"averaged"``: the same hypotheses averaged with those weights.

Everything that names them imports :data:`MODES`: the estimators'
``predict_with``, the experiments' result columns, the app's menus and the
replay's accuracy table (the browser receives the names in the payload).
"""

#: The predictors' names, in the order of every table that has one column per predictor.
MODES = ("last", "longest", "voted", "averaged")
