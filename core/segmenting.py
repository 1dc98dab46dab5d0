"""Vietnamese word segmentation (pyvi), loaded without scikit-learn.

pyvi's tokenizer is a CRF model pickled from ``sklearn_crfsuite``, whose only use of
scikit-learn is an optional base class (``sklearn_crfsuite.compat``: a plain class when
scikit-learn cannot be imported). Importing scikit-learn with it cost 9.7-10.5 s against 1.3 s
without it on the shared 2-core machine (1,431 modules against 302; issue 26), on the first
question of every fresh process. :func:`vi_tokenizer` imports pyvi with scikit-learn hidden
for the duration of that import when nothing has imported scikit-learn yet; the tokenizer's
output is the same (the CRF runs in python-crfsuite either way).
"""

from __future__ import annotations

import sys
import threading
import unicodedata
from typing import Any

_LOCK = threading.Lock()
_TOKENIZER: Any = None


def vi_tokenizer() -> Any:
    """pyvi's ``ViTokenizer`` class, imported on first use without scikit-learn.

    Thread-safe: concurrent first calls (a server's first requests) wait for the one import;
    none reads the module while another thread is still importing it (its entry in
    ``sys.modules`` exists before it is initialised: "partially initialized module
    'pyvi.ViTokenizer' has no attribute 'ViTokenizer'").
    """
    global _TOKENIZER
    if _TOKENIZER is not None:
        return _TOKENIZER
    with _LOCK:
        if _TOKENIZER is not None:
            return _TOKENIZER
        hide = "sklearn" not in sys.modules
        if hide:
            sys.modules["sklearn"] = None  # type: ignore[assignment]  # import raises ImportError
        try:
            from pyvi import ViTokenizer
        finally:
            if hide and "sklearn" in sys.modules and sys.modules["sklearn"] is None:
                del sys.modules["sklearn"]
        _TOKENIZER = ViTokenizer.ViTokenizer
    return _TOKENIZER


def segment(text: str) -> str:
    """Word-segment Vietnamese text with pyvi (syllables of one word joined by ``_``); NFC."""
    return str(vi_tokenizer().tokenize(unicodedata.normalize("NFC", text)))
