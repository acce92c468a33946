"""Text that comes from a visitor, shown as text: never as Markdown or HTML, never too long.

Link values, file names, column names and class labels are written by
whoever made the link or the file. Streamlit renders the text of
``st.markdown``, ``st.caption``, ``st.error``, ``st.warning``, ``st.toast``
(and widget labels) as Markdown, where ``[log in](https://example.com)`` is a
link, ``![i](http://host/t.png)`` loads a remote image, ``:red[...]`` and
``$...$`` change the look; so every text that may hold a visitor's words
goes through :func:`as_text` before it reaches one of them.

Escaping rather than ``st.text``: the messages that quote a visitor's words
are our own sentences in error boxes, captions and toasts, which
``st.text`` cannot draw. CommonMark reads a backslash before any ASCII
punctuation character as that character, literally, so escaping every one
of them leaves no Markdown, HTML, math or directive syntax; line breaks and
other control or direction-changing characters become spaces, so no new
paragraph, heading or list can start and no text runs backwards. Two rules
of Streamlit's renderer work on the text after the escapes are read: bare
addresses (``https://...``, ``www.``, ``name@host``) become links, and
``->``, ``<=``, ``--`` ... become arrows and dashes; an invisible word
joiner (U+2060) inside each of those keeps them as typed. (Checked in
chromium with Streamlit 1.67: no link, image, formula, icon or colour is
left, and the text reads as typed.) Widgets that show plain text anyway
(the options of a select box, table cells) take ``markdown=False``: cut,
not escaped.
"""

from __future__ import annotations

import re

#: Characters of a name or value (a column, a class, a link value) shown in full.
NAME_LIMIT = 60
#: Characters of a whole message (which quotes names already cut by the core).
MESSAGE_LIMIT = 2_000

# every ASCII punctuation character:
# ! " # $ % & ' ( ) * + , - . / : ; < = > ? @ [ \ ] ^ _ ` { | } ~
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")
# C0 and C1 controls (line breaks among them), the Unicode line and paragraph separators,
# zero-width and bidirectional formatting characters
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]")
# where a word joiner goes: in "://", "www.", after "@" (bare addresses), and between the
# two characters of "->", "<-", "--", ">=", "<=", "~=" (typographic replacements)
_AUTOMATIC = re.compile(r"(?<=:)(?=//)|(?<=www)(?=\.)|(?<=@)|(?<=[-<>~])(?=[-<>=])", re.IGNORECASE)
_JOINER = "\u2060"


def as_text(value, limit: int = NAME_LIMIT, *, markdown: bool = True) -> str:
    """``value`` as a string that Markdown shows exactly as written, cut to ``limit``.

    Parameters
    ----------
    value : object
        Anything; it is shown as ``str(value)``.
    limit : int, default=NAME_LIMIT
        At most this many characters of it are shown (then ``…``).
    markdown : bool, default=True
        Escape for a Markdown-rendering element; False only cuts (for
        widgets that show plain text).

    Examples
    --------
    >>> print(as_text("**bold** <b>"))
    \\*\\*bold\\*\\* \\<b\\>
    >>> as_text("a\\nb", markdown=False), as_text("x" * 100, 5, markdown=False)
    ('a b', 'xxxx…')
    """
    text = _CONTROL.sub(" ", str(value))
    if len(text) > limit:
        text = text[: max(limit - 1, 0)] + "…"
    if not markdown:
        return text
    return _PUNCTUATION.sub(r"\\\1", _AUTOMATIC.sub(_JOINER, text))
