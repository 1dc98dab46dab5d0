"""Concurrent first uses of pyvi's segmenter (a server's first requests) all get it: none reads
the module while another thread is still importing it (issue 25 item 4: on a fresh MCP server 3
of 4 concurrent first calls failed with "partially initialized module 'pyvi.ViTokenizer'")."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import threading
from hopgraph.core.segmenting import segment
results, errors = [], []
start = threading.Barrier(8)
def work():
    start.wait()
    try:
        results.append(segment("Người tham gia bảo hiểm y tế"))
    except Exception as e:
        errors.append(f"{type(e).__name__}: {e}")
threads = [threading.Thread(target=work) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
print(len(results), len(set(results)), errors)
"""


def test_concurrent_first_uses_all_get_the_segmenter() -> None:
    # a fresh interpreter: pyvi not imported yet, as in a server that just started
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         timeout=300, check=True).stdout.strip()
    assert out == "8 1 []", out
