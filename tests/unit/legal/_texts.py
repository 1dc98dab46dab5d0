"""Short legal texts written by a test, parsed as a user's files would be."""

from __future__ import annotations

from pathlib import Path

from hopgraph.loaders.legal import ParsedDocument, parse_inputs


def parse_texts(tmp_path: Path, **texts: str) -> dict[str, ParsedDocument]:
    """Each text written to ``<name>.txt`` under ``tmp_path`` and parsed together; the parsed
    documents by id. Fails the test when a file is refused."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, text in texts.items():
        path = tmp_path / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    docs, problems, _ = parse_inputs(paths)
    assert not problems, problems
    return {d.meta.doc_id: d for d in docs}
