// purpose: Instructions that name a unit its loaded law does not have: a change edge whose target is still a Placeholder inside a loaded Document (nothing is changed there), and a unit made only from an instruction's new wording that names the unit itself (made_from_instruction: shown from that wording's date, though the law as loaded lacks it: a document that inserted it may be missing, or the instruction names the wrong unit). A new wording dated before the unit it rewrites takes effect (inverted: the unit would end before it starts; the wording applies from the unit's own start). The loader reports each.
// mode: read
// param doc_ids: list<string> -- the documents of the load (as source or as target)
// returns: source, target, kind, line, day, start
CALL () {
  MATCH (s:LegalNode)-[r:AMENDS|REPEALS|REPLACES]->(t:Placeholder)
  WHERE t.kind = 'unit' AND (coalesce(s.doc_id, s.id) IN $doc_ids OR t.doc_id IN $doc_ids)
  MATCH (d:LegalNode {id: t.doc_id}) WHERE d:Document
  RETURN s.id AS source, t.id AS target, 'missing' AS kind, s.source_line AS line,
    null AS day, null AS start
  UNION
  MATCH (v:UnitVersion)-[:VERSION_OF]->(t:LegalUnit)
  WHERE t.made_from_instruction AND (v.amended_by IN $doc_ids OR t.doc_id IN $doc_ids)
  RETURN v.amended_by AS source, t.id AS target, 'made' AS kind, v.source_line AS line,
    null AS day, null AS start
  UNION
  MATCH (v:UnitVersion)-[:VERSION_OF]->(t:LegalUnit)
  WHERE (v.amended_by IN $doc_ids OR t.doc_id IN $doc_ids) AND v.valid_from IS NOT NULL
    AND t.valid_from IS NOT NULL AND v.valid_from < t.valid_from AND v.derived IS NULL
  RETURN v.amended_by AS source, t.id AS target, 'inverted' AS kind, v.source_line AS line,
    v.valid_from AS day, t.valid_from AS start
}
RETURN DISTINCT source, target, kind, line, day, start
ORDER BY target, source
LIMIT 500
