// purpose: The dates and status of the documents a question names (by id or number), for the answer's document-status line: a named document's status is read from the graph's validity, never from its text.
// mode: read
// param names: list<string> -- document ids or numbers as normalised from the question (never empty)
// returns: id, number, doc_type, effective_date, expiry_date, status
MATCH (d:Document)
WHERE d.id IN $names OR d.number IN $names
RETURN d.id AS id, d.number AS number, d.doc_type AS doc_type,
  d.effective_date AS effective_date, d.expiry_date AS expiry_date, d.status AS status
ORDER BY id
